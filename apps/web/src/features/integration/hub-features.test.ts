import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error.ts';
import { featureState, toggleErrorMessage } from './hub-features.ts';
import { needsHub } from './use-hub-reachability.ts';

describe('featureState (spec §1 feature versions)', () => {
  it('offers a feature only from its version on, and names the upgrade otherwise', () => {
    expect(featureState('2.1', 'audit')).toEqual({ state: 'available' });
    expect(featureState('2.0.9', 'audit')).toEqual({ state: 'upgrade', version: '2.1' });
    expect(featureState('1.9', 'recovery_link')).toEqual({ state: 'available' });
    expect(featureState('1.08', 'recovery_link')).toEqual({ state: 'upgrade', version: '1.09' });
    expect(featureState('2.0', 'recovery_notification')).toEqual({ state: 'available' });
    expect(featureState('2.1', 'sharing_v2')).toEqual({ state: 'upgrade', version: '2.2' });
    expect(featureState('2.0', 'siem')).toEqual({ state: 'available' });
    expect(featureState(null, 'siem')).toEqual({ state: 'no_hub', version: '2.0' });
  });
});

describe('toggleErrorMessage (spec §8 toggle-service codes)', () => {
  it('shows the server description for the four codes', () => {
    for (const code of ['auth_not_set', 'aux_server_not_connected', 'failed', 'not_allowed']) {
      expect(toggleErrorMessage(new ApiError(code, `described ${code}`, 409))).toBe(`described ${code}`);
    }
  });

  it("says 'Something went wrong' for anything else", () => {
    expect(toggleErrorMessage(new ApiError('forbidden', 'Not allowed (role).', 403))).toBe('Something went wrong');
    expect(toggleErrorMessage(new ApiError('not_allowed', '', 409))).toBe('Something went wrong');
    expect(toggleErrorMessage(new Error('x'))).toBe('Something went wrong');
  });

  it('names a connection failure', () => {
    expect(toggleErrorMessage(new ApiError('network', '', 0, 'FETCH_ERROR', 'server'))).toBe('server_connection_failed');
  });
});

describe('needsHub (spec §4 hub_unreachable sign-out)', () => {
  it('signs out only an admin whose every scope needs the Hub', () => {
    expect(needsHub({ scopes: ['recovery_agent'] })).toBe(true);
    expect(needsHub({ scopes: ['recovery_agent', 'integrator'] })).toBe(false);
    expect(needsHub({ scopes: ['super_admin'] })).toBe(false);
  });
});
