import { describe, expect, it } from 'vitest';

// The Portuguese dictionary is its own chunk: a pt-BR browser must get it before the
// first render, whatever i18next's resolvedLanguage says before the resources are in.
describe('i18n start-up', () => {
  it('loads Portuguese for a pt-BR browser before resolving, with plurals and the campaign and channel contexts', async () => {
    Object.assign(globalThis, { document: { documentElement: {} } });
    Object.defineProperty(globalThis, 'navigator', { value: { language: 'pt-BR', languages: ['pt-BR', 'en'] }, configurable: true });
    const { default: i18n, i18nReady } = await import('./index');
    await i18nReady;
    expect(i18n.language).toBe('pt');
    expect(i18n.t('Sign in to Atende')).toBe('Entrar no Atende');
    expect(i18n.t('Start', { context: 'campaign' })).toBe('Iniciar');
    expect(i18n.t('{{count}} valid subscribers', { count: 1 })).toBe('1 assinante válido');
    expect(i18n.t('{{count}} valid subscribers', { count: 2 })).toBe('2 assinantes válidos');
    // A channel's availability is not the workstation's tab of active conversations.
    expect(i18n.t('Active', { context: 'channel' })).toBe('Ativo');
    expect(i18n.t('Paused', { context: 'channel' })).toBe('Pausado');
    expect(i18n.t('Active')).toBe('Ativas');
    expect(i18n.t('Webhook secret')).toBe('Segredo do webhook');
    const en = i18n.getFixedT('en');
    expect(en('Start', { context: 'campaign' })).toBe('Start');
    expect(en('{{count}} valid subscribers', { count: 1 })).toBe('1 valid subscriber');
  });
});
