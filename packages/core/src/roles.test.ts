import { describe, expect, it } from 'vitest';
import { hasAnyRole, homePathFor, isAgentScreenPath, roleCovers } from './roles';

// Admin or owner may do everything; manager covers agent, campaign_manager, supervisor
// and manager; supervisor covers agent and supervisor; an agent-only user passes no privileged check.
describe('role coverage', () => {
  it('lets admin and owner pass every check', () => {
    for (const required of ['agent', 'supervisor', 'manager', 'campaign_manager', 'tenant_admin', 'admin'] as const) {
      expect(roleCovers(['admin'], required)).toBe(true);
      expect(roleCovers(['owner'], required)).toBe(true);
    }
  });
  it('lets a manager pass agent, campaign_manager, supervisor and manager checks only', () => {
    expect(['agent', 'campaign_manager', 'supervisor', 'manager'].every((r) => roleCovers(['manager'], r as never))).toBe(true);
    expect(roleCovers(['manager'], 'admin')).toBe(false);
    expect(roleCovers(['manager'], 'tenant_admin')).toBe(false);
  });
  it('lets a supervisor pass agent and supervisor checks only', () => {
    expect(roleCovers(['supervisor'], 'agent')).toBe(true);
    expect(roleCovers(['supervisor'], 'manager')).toBe(false);
    expect(roleCovers(['supervisor'], 'campaign_manager')).toBe(false);
  });
  it('gives an agent-only user no privileged check', () => {
    expect(hasAnyRole(['agent'], ['supervisor', 'manager', 'admin', 'campaign_manager'])).toBe(false);
    expect(roleCovers(['agent'], 'agent')).toBe(true);
  });
  it('sends agents to /app and everybody else to /admin', () => {
    expect(homePathFor(['agent'])).toBe('/app');
    expect(homePathFor(['agent', 'supervisor'])).toBe('/app');
    expect(homePathFor(['admin'])).toBe('/admin');
  });
});

// The agent's screen, which gets the page preloading its code and its list at start-up.
describe('isAgentScreenPath', () => {
  it('is /app, with or without the trailing slash', () => {
    expect(isAgentScreenPath('/app')).toBe(true);
    expect(isAgentScreenPath('/app/')).toBe(true);
  });
  it('is no other screen under /app, nor a path that only starts like it', () => {
    for (const path of ['/', '/app/chat-history', '/app/campaigns', '/application', '/apps', '/admin', '/app//', '', 'app'])
      expect(isAgentScreenPath(path), path).toBe(false);
  });
});
