import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyWizard, localDateTimeInput, payloadOf } from './wizard';

// Issue 14 item 3: a schedule is entered and shown in the user's zone and stored in UTC; editing a
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
