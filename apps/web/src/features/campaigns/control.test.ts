import type { Campaign } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { campaignControl } from './CampaignsPage';

const campaign = (patch: Partial<Campaign>): Campaign => ({
  uuid: '00000000-0000-4000-8000-000000000001',
  name: 'C',
  mode: 'conversation',
  state: 'stopped',
  desired_state: 'stopped',
  channel: { uuid: '00000000-0000-4000-8000-000000000002', name: 'W', type: 'whatsapp_360dialog' },
  template: { uuid: '00000000-0000-4000-8000-000000000003', name: 't', deleted: false, config: { status: 'APPROVED' } },
  valid_subscriber_count: 3,
  inbound_entrypoint: null,
  actions_outdated: false,
  dnd_list: [],
  config: { default_action: { action: 'end_with_message' }, reply_actions: {} },
  public: true,
  start_at: null,
  started_at: null,
  scheduled_start_errors: [],
  import_status: null,
  import_summary: null,
  created_by: null,
  created_at: '2026-11-25T00:00:00.000Z',
  progress: { total: 3, sent: 3, errors: 0, dnd: 0, remaining: 0, unknown: 0 },
  ...patch,
});

// A finished campaign offers no Start until new subscribers are pending.
describe('the Start control of a finished campaign', () => {
  it('is disabled with its reason on sent, completed and completed with engagement', () => {
    for (const state of ['sent', 'completed', 'completed_with_engagement'] as const) {
      expect(campaignControl(campaign({ state, desired_state: state }))).toEqual({
        label: 'Start',
        desired: 'running',
        reason: 'Every subscriber of this campaign has been sent to: add new subscribers to send again',
      });
    }
  });
  it('starts a new run once new subscribers are pending; a stopped campaign keeps the spec rule', () => {
    expect(
      campaignControl(
        campaign({
          state: 'completed',
          desired_state: 'completed',
          progress: { total: 4, sent: 3, errors: 0, dnd: 0, remaining: 1, unknown: 0 },
        }),
      ).reason,
    ).toBeNull();
    expect(campaignControl(campaign({ state: 'stopped', desired_state: 'stopped' })).reason).toBeNull();
    expect(campaignControl(campaign({ state: 'completed', desired_state: 'running' })).label).toBe('Starting');
  });
});
