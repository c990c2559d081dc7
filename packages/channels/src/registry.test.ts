import { CHANNEL_TYPE_FACTS, CHANNEL_TYPES, HASH_CHANNEL_KIND, type ChannelType } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { channelAdapters, channelDefinition, CHANNEL_DEFINITIONS } from './registry';
import { providerIdentity } from './provider-identity';

describe('channel definitions', () => {
  it('serve each type once, each with a row of facts in the contract, and every row has a definition', () => {
    const served = CHANNEL_DEFINITIONS.flatMap((definition) => definition.types);
    expect(new Set(served).size).toBe(served.length);
    for (const type of served) expect(CHANNEL_TYPE_FACTS[type], type).toBeDefined();
    expect(Object.keys(CHANNEL_TYPE_FACTS).sort()).toEqual([...served].sort());
    for (const type of served) expect(CHANNEL_TYPES).toContain(type);
  });

  it('build one adapter per definition, serving exactly the types of its definition', () => {
    const adapters = channelAdapters();
    for (const definition of CHANNEL_DEFINITIONS) {
      const adapter = adapters.get(definition.types[0]!)!;
      expect([...adapter.types].sort()).toEqual([...definition.types].sort());
      for (const type of definition.types) expect(adapters.get(type)).toBe(adapter);
    }
  });

  it('find a digest-typed channel by HASH_CHANNEL_KIND, and nothing for types that cannot be created', () => {
    const digest = 'a'.repeat(24);
    expect(channelDefinition(digest)?.types).toContain(HASH_CHANNEL_KIND);
    expect(channelDefinition(HASH_CHANNEL_KIND)).toBe(channelDefinition('whatsapp_cloud'));
    expect(channelDefinition('whatsapp_lion')).toBeNull();
    expect(channelDefinition('no_such_type')).toBeNull();
    expect(channelDefinition('droz')).toBe(channelDefinition('custom'));
  });

  it("take each type's provider identity from its definition", () => {
    const of = (type: ChannelType | string, config: Record<string, string>, credentials: Record<string, string> | null = null) =>
      providerIdentity({ id: '0b4c4b0e-1f0e-4c47-9a55-7d3f7e0c2a11', type, config, credentials })?.identity ?? null;
    expect(of('a'.repeat(32), { phone_number_id: ' 123 ' })).toBe('whatsapp:123');
    expect(of('sms', { account_sid: 'AC1', from_number: '+1 (500) 555-0006' })).toBe('sms:ac1:15005550006');
    expect(of('telegram', {}, { bot_token: '42:secret' })).toBe('telegram:42');
    expect(of('whatsapp_web', { base_url: 'HTTPS://Bridge.Example.com:443/evo/', instance: ' Loja ' })).toBe(
      'whatsapp_web:https://bridge.example.com/evo/Loja',
    );
    expect(of('whatsapp_web', { base_url: 'https://bridge.example.com' })).toBeNull();
    expect(of('email', {})).toBe('email:0b4c4b0e1f0e4c479a557d3f7e0c2a11');
    expect(of('custom', { webhook_url: 'https://example.com' })).toBeNull();
  });
});
