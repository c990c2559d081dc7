import { describe, expect, it } from 'vitest';
import { adminPathFor } from './AppLayout';

describe('a non-agent on an /app link', () => {
  it('keeps campaign deep links, in the admin area', () => {
    expect(adminPathFor('/app/campaigns/3f1c/subscribers', '?states=error')).toBe('/admin/campaigns/3f1c/subscribers?states=error');
    expect(adminPathFor('/app/campaigns/report')).toBe('/admin/campaigns/report');
    expect(adminPathFor('/app/campaigns')).toBe('/admin/campaigns');
  });

  it('sends everything else to the admin home', () => {
    expect(adminPathFor('/app')).toBe('/admin');
    expect(adminPathFor('/app/chat-history')).toBe('/admin');
    expect(adminPathFor('/app/campaignsx')).toBe('/admin');
  });
});
