// The console sign-in sequence of spec §4: email → password → emailed code or authenticator,
// security key or backup code → session, each way in its own file over the shared steps of
// sign-in-steps.ts, composed into one service.
import { createCodeSignIn } from './sign-in-codes.ts';
import { createPasswordSignIn } from './sign-in-password.ts';
import { createSecurityKeySignIn } from './sign-in-security-key.ts';
import { type AuthDeps, createSignInSteps } from './sign-in-steps.ts';
import { createLinkSignIn } from './sign-in-with-link.ts';
import { createSignOutEvents } from './sign-out.ts';

export function createAuthService(deps: AuthDeps) {
  const steps = createSignInSteps(deps);
  return {
    ...createPasswordSignIn(deps, steps),
    ...createCodeSignIn(deps, steps),
    ...createLinkSignIn(deps, steps),
    ...createSignOutEvents(deps),
    ...createSecurityKeySignIn(deps, steps),
  };
}
