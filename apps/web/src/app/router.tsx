import { Skeleton, Stack } from '@mantine/core';
import { lazy, Suspense, useEffect } from 'react';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { EmailStep } from '../features/auth/EmailStep.tsx';
import { LoginLayout } from '../features/auth/LoginLayout.tsx';
import { setNavigator } from '../lib/auth.ts';
import { setConsolePreloader } from '../lib/preload.ts';
import { lazyFrom, remembered } from '../lib/remembered.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';

// Only /login's first step is in the initial bundle; every other screen is a lazy chunk.
const loginSteps = () => import('../features/auth/login-steps.ts');
const PasswordStep = lazy(async () => ({ default: (await loginSteps()).PasswordStep }));
const OtpStep = lazy(async () => ({ default: (await loginSteps()).OtpStep }));
const ForgotPasswordStep = lazy(async () => ({ default: (await loginSteps()).ForgotPasswordStep }));
const NoAdminFoundStep = lazy(async () => ({ default: (await loginSteps()).NoAdminFoundStep }));
const TotpStep = lazy(async () => ({ default: (await loginSteps()).TotpStep }));
const BackupCodeStep = lazy(async () => ({ default: (await loginSteps()).BackupCodeStep }));
const ResetPasswordStep = lazy(async () => ({ default: (await loginSteps()).ResetPasswordStep }));
const SetPasswordStep = lazy(async () => ({ default: (await loginSteps()).SetPasswordStep }));
const U2fStep = lazy(async () => ({ default: (await loginSteps()).U2fStep }));
const SsoOtpChoiceStep = lazy(async () => ({ default: (await loginSteps()).SsoOtpChoiceStep }));
const SsoReturnPage = lazy(async () => ({ default: (await loginSteps()).SsoReturnPage }));
const FamilyLoginPage = lazy(async () => ({ default: (await loginSteps()).FamilyLoginPage }));
const EmailLinkPage = lazy(async () => ({ default: (await loginSteps()).EmailLinkPage }));
const AdminInvitationPage = lazy(async () => ({ default: (await loginSteps()).AdminInvitationPage }));
const shellModule = remembered(() => import('./layout/Shell.tsx'));
const Shell = lazyFrom(shellModule, 'Shell');

/**
 * The signed-in frame's code and, for the usual landing screens, theirs; resolves once both are
 * remembered (or failed: the lazy route then asks again and shows it). A cold load of a console
 * page awaits it before its first render (main.tsx), so no Suspense fallback holds the page back.
 */
export function loadConsoleCode(landingScreens: boolean): Promise<void> {
  return new Promise((resolve) => {
    shellModule()
      .then((m) => (landingScreens ? m.preloadLandingScreens() : undefined))
      .then(
        () => resolve(),
        () => resolve(),
      );
  });
}

// While a sign-in code is typed: the frame and the most common landing screen (the dashboard's).
setConsolePreloader(() => void loadConsoleCode(true));

/** Lets code outside React (logout, session loss) move without reloading. */
function NavigatorBridge() {
  const [, navigate] = useLocation();
  useEffect(() => {
    setNavigator((path) => navigate(path));
    // A page restored from the back-forward cache may show a session that has since ended (spec §2).
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) navigate('/login');
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [navigate]);
  return null;
}

const Pending = () => (
  <Stack gap="sm" p="md" aria-busy="true">
    <Skeleton h={24} w="60%" />
    <Skeleton h={40} />
    <Skeleton h={40} />
  </Stack>
);

/** Hash routing (spec §2): the sign-in steps, and everything else inside the console shell. */
export function AppRoutes() {
  return (
    <Router hook={useHashLocation}>
      <NavigatorBridge />
      <ErrorBoundary>
        <Suspense fallback={<Pending />}>
          <Switch>
            <Route path="/login/*?">
              <LoginLayout>
                <Suspense fallback={<Pending />}>
                  <Switch>
                    <Route path="/login" component={EmailStep} />
                    {/* An identity provider may return here with its result in the hash's query (spec §2 guards). */}
                    <Route path={/^\/login\/verify-password(?:\?.*)?$/} component={PasswordStep} />
                    <Route path="/login/verify-otp" component={OtpStep} />
                    <Route path="/login/verify-totp" component={TotpStep} />
                    <Route path="/login/verify-backup-code" component={BackupCodeStep} />
                    <Route path="/login/set-password" component={SetPasswordStep} />
                    <Route path="/login/u2f" component={U2fStep} />
                    <Route path="/login/sso-otp-choice" component={SsoOtpChoiceStep} />
                    <Route path="/login/forgot-password" component={ForgotPasswordStep} />
                    <Route path="/login/no-admin-found" component={NoAdminFoundStep} />
                    <Route>
                      <Redirect to="/login" replace />
                    </Route>
                  </Switch>
                </Suspense>
              </LoginLayout>
            </Route>
            {/* The emailed link carries its token in the hash's query: #/reset-password?password_request=… */}
            <Route path={/^\/reset-password(?:\?.*)?$/}>
              <LoginLayout>
                <Suspense fallback={<Pending />}>
                  <ResetPasswordStep />
                </Suspense>
              </LoginLayout>
            </Route>
            {/* The SSO return page: its result is in the hash's query, #/sso?sso_status=… */}
            <Route path={/^\/sso(?:\?.*)?$/}>
              <LoginLayout keepSession>
                <Suspense fallback={<Pending />}>
                  <SsoReturnPage />
                </Suspense>
              </LoginLayout>
            </Route>
            <Route path="/family/:token">
              {(params) => (
                <LoginLayout keepSession>
                  <Suspense fallback={<Pending />}>
                    <FamilyLoginPage token={params.token} />
                  </Suspense>
                </LoginLayout>
              )}
            </Route>
            <Route path="/admin-invitation/:token">
              {(params) => (
                <LoginLayout keepSession>
                  <Suspense fallback={<Pending />}>
                    <AdminInvitationPage token={params.token} />
                  </Suspense>
                </LoginLayout>
              )}
            </Route>
            <Route path="/email-verification/:token">
              {(params) => (
                <LoginLayout>
                  <Suspense fallback={<Pending />}>
                    <EmailLinkPage token={params.token} />
                  </Suspense>
                </LoginLayout>
              )}
            </Route>
            <Route>
              <Shell />
            </Route>
          </Switch>
        </Suspense>
      </ErrorBoundary>
    </Router>
  );
}
