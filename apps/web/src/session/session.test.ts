import type { Role } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import type { LocalUser } from './localUser';
import { opensAgentScreen } from './session';

const kept = (...roles: Role[]): LocalUser => ({ id: 1, uuid: 'u-1', username: 'someone', roles, workspace: 'Demo' });

// The page loads that show the agent's screen ask for its code and its list at start-up.
describe('opensAgentScreen', () => {
  it('is /app and / for a kept agent (Home sends an agent to /app)', () => {
    for (const path of ['/app', '/app/', '/']) expect(opensAgentScreen(path, kept('agent')), path).toBe(true);
    expect(opensAgentScreen('/', kept('supervisor', 'agent'))).toBe(true);
  });
  it('is not another screen of the agent, nor any screen of a user without the agent role or without a kept user', () => {
    for (const path of ['/app/chat-history', '/app/campaigns', '/admin', '/login'])
      expect(opensAgentScreen(path, kept('agent')), path).toBe(false);
    for (const path of ['/app', '/']) {
      expect(opensAgentScreen(path, kept('admin')), path).toBe(false);
      expect(opensAgentScreen(path, kept('supervisor')), path).toBe(false);
      expect(opensAgentScreen(path, null), path).toBe(false);
    }
  });
});
