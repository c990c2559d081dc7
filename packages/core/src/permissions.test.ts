import { describe, expect, it } from 'vitest';
import { allows, mayUse, PERMISSION_NAMES } from './permissions';

// Coverage, kept by the written matrix: admin and owner pass everything; whatever a
// supervisor passes a manager passes; whatever an agent passes a supervisor passes. The one exception
// The campaigns rows take the stricter reading: manager is left out.
describe('the role matrix', () => {
  it('lets admin and owner use every capability', () => {
    for (const name of PERMISSION_NAMES) {
      expect(allows(['admin'], name), name).toBe(true);
      expect(allows(['owner'], name), name).toBe(true);
    }
  });

  it('gives a manager what a supervisor has, and a supervisor what an agent has', () => {
    for (const name of PERMISSION_NAMES) {
      if (allows(['supervisor'], name)) expect(allows(['manager'], name), name).toBe(true);
      if (allows(['agent'], name)) expect(allows(['supervisor'], name), name).toBe(true);
    }
  });

  it('keeps manager out of campaigns and template management (stricter reading)', () => {
    expect(allows(['manager'], 'campaigns')).toBe(false);
    expect(allows(['manager'], 'templates.manage')).toBe(false);
    expect(allows(['campaign_manager'], 'campaigns')).toBe(true);
  });

  it('keeps tenant_admin and campaign_manager from editing the contact book (campaign_manager may add one)', () => {
    for (const name of ['contacts.update', 'contacts.delete'] as const) {
      expect(allows(['tenant_admin'], name), name).toBe(false);
      expect(allows(['campaign_manager'], name), name).toBe(false);
    }
    expect(allows(['tenant_admin'], 'contacts.create')).toBe(false);
    expect(allows(['campaign_manager'], 'contacts.create')).toBe(true);
  });

  it('needs the feature flag of a capability on', () => {
    expect(mayUse(['campaign_manager'], { outbound_campaign: false }, 'campaigns')).toBe(false);
    expect(mayUse(['campaign_manager'], { outbound_campaign: true }, 'campaigns')).toBe(true);
    expect(mayUse(['supervisor'], {}, 'settings.pauses')).toBe(true);
  });
});
