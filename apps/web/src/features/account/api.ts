import type { ApiMap, EndpointInput } from '@latchkey/contracts/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the account security screen; the team slug scopes the cache. */
const accountKeys = {
  all: (team: string) => ['account', team] as const,
  security: (team: string) => [...accountKeys.all(team), 'security'] as const,
  securityKeys: (team: string) => [...accountKeys.all(team), 'security-keys'] as const,
};

/** How the signed-in admin signs in: method, password, authenticator, backup codes left. */
export const useSecuritySummaryQuery = () =>
  useQuery({ queryKey: accountKeys.security(useTeamSlug()), queryFn: () => call('authType', {}) });

/** After a change: the summary and the keys are read again. */
export function useAccountRefresh() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return () => client.invalidateQueries({ queryKey: accountKeys.all(team) });
}

export const useSecurityKeysQuery = () =>
  useQuery({ queryKey: accountKeys.securityKeys(useTeamSlug()), queryFn: () => call('u2fKeys', {}) });

// The forms run these through useSubmit (account-ui.tsx), which shows the spinner, the error and the toast.
export const updateSignInMethod = (input: EndpointInput<ApiMap['authTypeUpdate']>) => call('authTypeUpdate', input);
export const changePassword = (oldPassword: string, newPassword: string) =>
  call('changePassword', { old_password: oldPassword, new_password: newPassword });
export const setFirstPassword = (password: string, again: string) =>
  call('setFirstPassword', { password, confirm_password: again });

/** The authenticator: register (secret, then a code), change (a current code, a new secret, a code), new backup codes. */
export const authenticator = {
  register: () => call('totpRegister', {}),
  verifyRegister: (totp: string) => call('totpRegisterVerify', { totp }),
  change: (totp: string) => call('totpChange', { totp }),
  verifyChange: (totp: string) => call('totpChangeVerify', { totp }),
  regenerateCodes: (totp: string) => call('regenerateRecoveryCodes', { totp }),
};

/** Adds a security key with the browser's WebAuthn prompt; null when the admin cancels it or the browser refuses. */
export async function addSecurityKey() {
  const { options } = await call('u2fRegisterOptions', {});
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: options as never });
  } catch {
    return null;
  }
  return call('u2fRegisterVerify', { response: response as Record<string, unknown>, name: '' });
}

export const renameSecurityKey = (id: string, name: string) => call('u2fKeyRename', { id, name });
export const removeSecurityKey = (id: string, password: string) => call('u2fKeyRemove', { id, password });
