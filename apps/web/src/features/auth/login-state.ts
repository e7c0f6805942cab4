import { useSyncExternalStore } from 'react';

/** What the sign-in steps know so far (spec §3 Login state). Held in memory only: never stored. */
interface LoginState {
  email: string;
  team_slug: string;
  team_name: string;
  teams: { team_slug: string; team_name: string }[];
  auth: 'default' | 'password';
  password: string;
  tfa_type: 'otp_email' | 'otp_totp' | 'u2f' | null;
  otp_sent: boolean;
  /** From a set_password_first reply: lets /login/set-password set the first password. */
  set_auth_token: string;
  /** The team's active SSO connectors; SSO is active when there is one (spec §2 guards). */
  sso_configurations: { config_uuid: string; config_name: string }[];
  /** The onboarding link's token: verify-otp sends it with the code (spec §4). */
  onboarding_token: string;
}

const EMPTY: LoginState = {
  email: '',
  team_slug: '',
  team_name: '',
  teams: [],
  auth: 'default',
  password: '',
  tfa_type: null,
  otp_sent: false,
  set_auth_token: '',
  sso_configurations: [],
  onboarding_token: '',
};
let state = EMPTY;
const listeners = new Set<() => void>();

export const getLoginState = (): LoginState => state;

export function updateLoginState(patch: Partial<LoginState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export const resetLoginState = (patch: Partial<LoginState> = {}): void => updateLoginState({ ...EMPTY, ...patch });

export const useLoginState = (): LoginState =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
