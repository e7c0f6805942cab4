import type { OnboardingCloud } from '@latchkey/contracts';

/** How the cloud answered on the consent callback. */
type ConsentOutcome = { granted: true } | { granted: false; reason: string };

/**
 * An admin-consent app: the address that asks the cloud's administrator to add the product to
 * the organisation's enterprise apps, and how to read the cloud's answer on the way back.
 */
export interface ConsentProvider {
  readonly name: string;
  consentUrl(input: { state: string; redirectUri: string }): string;
  outcome(query: Record<string, string | undefined>): ConsentOutcome;
}

/**
 * Microsoft Entra ID admin consent (v2 endpoint): the tenant's admin grants the app's
 * permissions for the whole organisation; the answer is `admin_consent=True` or an `error`.
 */
export function microsoftEntraConsent(clientId: string, scopes: string): ConsentProvider {
  return {
    name: 'microsoft_entra',
    consentUrl({ state, redirectUri }) {
      const url = new URL('https://login.microsoftonline.com/organizations/v2.0/adminconsent');
      url.search = new URLSearchParams({ client_id: clientId, scope: scopes, redirect_uri: redirectUri, state }).toString();
      return url.toString();
    },
    outcome(query) {
      if (query.error) return { granted: false, reason: query.error };
      return query.admin_consent?.toLowerCase() === 'true' ? { granted: true } : { granted: false, reason: 'not_granted' };
    },
  };
}

/**
 * Google Workspace: the OAuth consent screen for the Workspace app, asked of the domain's admin
 * with `prompt=consent`; the answer carries a `code` or an `error`.
 */
export function googleWorkspaceConsent(clientId: string, scopes: string): ConsentProvider {
  return {
    name: 'google_workspace',
    consentUrl({ state, redirectUri }) {
      const url = new URL('https://accounts.google.com/o/oauth2/v2/auth');
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: scopes,
        access_type: 'offline',
        prompt: 'consent',
        state,
      }).toString();
      return url.toString();
    },
    outcome(query) {
      if (query.error) return { granted: false, reason: query.error };
      return query.code ? { granted: true } : { granted: false, reason: 'not_granted' };
    },
  };
}

export const STAND_IN_PATH = '/onboarding/consent/stand-in/';
export const CONSENT_CALLBACK_PATH = '/onboarding/consent/callback/';
export const CONSENT_SCRIPT_PATH = '/onboarding/consent/done.js';

/**
 * The stand-in for a cloud's consent screen, served by this server (demo and tests, never in
 * production): a page with Grant and Deny that returns to the callback like a cloud would.
 */
export function standInConsent(baseUrl: () => string | null): ConsentProvider {
  return {
    name: 'stand_in',
    consentUrl({ state }) {
      const base = baseUrl();
      if (!base) throw new Error('no console address for the stand-in consent page');
      return `${base}${STAND_IN_PATH}?${new URLSearchParams({ state })}`;
    },
    outcome(query) {
      return query.stand_in === 'granted' ? { granted: true } : { granted: false, reason: query.error ?? 'access_denied' };
    },
  };
}

export type ConsentProviders = Partial<Record<OnboardingCloud, ConsentProvider>>;
