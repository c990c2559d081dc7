import { describe, expect, it } from 'vitest';
import { homeFor, safeInternalPath } from './home';

// /app for agents, otherwise /admin.
describe('homeFor', () => {
  it('sends agents to the agent panel, whatever else they hold', () => {
    expect(homeFor(['agent'])).toBe('/app');
    expect(homeFor(['agent', 'supervisor'])).toBe('/app');
  });
  it('sends supervisor-level users and the section roles to the admin area', () => {
    for (const role of ['supervisor', 'manager', 'admin', 'owner', 'tenant_admin', 'campaign_manager'] as const)
      expect(homeFor([role])).toBe('/admin');
  });
  it('has no home for a user without roles (no redirect loop)', () => {
    expect(homeFor([])).toBeNull();
  });
});

describe('safeInternalPath', () => {
  it('keeps paths of this site', () => {
    expect(safeInternalPath('/app/chat-history')).toBe('/app/chat-history');
  });
  it('refuses other sites and missing values', () => {
    for (const page of ['//evil.example', 'https://evil.example', '/\\evil.example', '', null]) expect(safeInternalPath(page)).toBeNull();
  });
});
