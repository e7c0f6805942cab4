// The SSO feature's public entry: what other features may use; its other files are internals.
export { createSsoService, type SsoService } from './sso.service.ts';
export { type SsoSignIn, ssoSignIn } from './sso-sign-in.ts';
