import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionErrors, emptyWizard, entrypointOf, localDateTimeInput, payloadOf } from './wizard';

// A schedule is entered and shown in the user's zone and stored in UTC; editing a
// campaign and saving it unchanged must give back the same instant.
describe('the campaign schedule in the user time zone', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Sao_Paulo';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  it('shows a stored UTC instant as local wall time', () => {
    // 00:40 UTC is 21:40 of the day before in São Paulo (UTC-3).
    expect(localDateTimeInput('2030-03-11T00:40:00.000Z')).toBe('2030-03-10T21:40');
  });

  it('saves an unchanged schedule as the same instant, however often it is saved', () => {
    let stored = '2030-03-11T00:40:00.000Z';
    for (let save = 0; save < 3; save++) {
      const state = { ...emptyWizard(), schedule: true, start_at: localDateTimeInput(stored) };
      stored = payloadOf(state, [], []).start_at ?? '';
    }
    expect(stored).toBe('2030-03-11T00:40:00.000Z');
  });

  it('gives an empty input for a value that is not a date', () => {
    expect(localDateTimeInput('not a date')).toBe('');
  });
});

describe('campaign settings of the wizard', () => {
  it('sends the entry point with its type, and none for an empty choice', () => {
    const uuid = '6f1c2b9e-2c1d-4c4e-9a55-0a3f1e2d3c4b';
    expect(payloadOf({ ...emptyWizard(), inbound_entrypoint: `menu:${uuid}` }, [], []).inbound_entrypoint).toEqual({ uuid, type: 'menu' });
    expect(entrypointOf('')).toBeNull();
    expect(entrypointOf(`queue:${uuid}`)).toBeNull();
  });

  it('preselects the default lists and needs one when an action is end_dnd', () => {
    expect(emptyWizard(['a']).dnd_list).toEqual(['a']);
    const optOut = { ...emptyWizard(), actions: { DEFAULT_ACTION: { action: 'end_dnd' as const, subAction: ['a'], message: 'Removido' } } };
    expect(actionErrors(optOut, []).dnd_list).toBe('At least one DND list is required');
    expect(actionErrors({ ...optOut, dnd_list: ['a'] }, []).dnd_list).toBeUndefined();
  });
});
