// Every feature's calls, registered on the router (and the few raw routes some features need),
// in the order the composition root (app.ts) always registered them.

import type { Db, Jobs, Router } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { listeningUrl, type SharedServices } from './app-services.ts';
import type { Config } from './config.ts';
import { accountRoutes } from './features/account/account.routes.ts';
import { createAccountService } from './features/account/account.service.ts';
import { createPasswordResetService } from './features/account/password-reset.service.ts';
import { adminsRoutes } from './features/admins/admins.routes.ts';
import { startElevationSweep } from './features/admins/elevation-sweep.ts';
import { elevationRoutes } from './features/admins/elevations.routes.ts';
import { adminsRepository } from './features/admins/index.ts';
import { approvalsRepository } from './features/approvals/approvals.repository.ts';
import { approvalsRoutes } from './features/approvals/approvals.routes.ts';
import { createApprovals } from './features/approvals/approvals.service.ts';
import { hubApprovalRoutes } from './features/approvals/index.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { sessionsRepository } from './features/auth/index.ts';
import { createOnboardingInvites } from './features/auth/onboarding-invites.ts';
import { signInLinkRoutes } from './features/auth/sign-in-links.routes.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { brandingRoutes } from './features/branding/branding.routes.ts';
import { analyticsRoutes, dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { devicesRoutes } from './features/devices/devices.routes.ts';
import { devicesRepository } from './features/devices/index.ts';
import { directoryRoutes } from './features/directory/index.ts';
import { familyRoutes } from './features/family/family.routes.ts';
import { applyFamilyBenefit } from './features/family/index.ts';
import { groupsRoutes } from './features/groups/groups.routes.ts';
import { acceptHubCall } from './features/integration/index.ts';
import { integrationRoutes, recoverySwitchRoutes } from './features/integration/integration.routes.ts';
import { membersRoutes } from './features/members/members.routes.ts';
import { googleWorkspaceConsent, microsoftEntraConsent, standInConsent } from './features/onboarding/consent.ts';
import { onboardingRoutes } from './features/onboarding/onboarding.routes.ts';
import { createOnboardingService } from './features/onboarding/onboarding.service.ts';
import { auditPolicyRoutes, policiesRoutes } from './features/policies/policies.routes.ts';
import { SCIM_PREFIX, scimRoutes } from './features/scim/scim.routes.ts';
import { createScimService } from './features/scim/scim.service.ts';
import { scimConnectorsRoutes } from './features/scim/scim-connectors.routes.ts';
import { createScimConnectorsService } from './features/scim/scim-connectors.service.ts';
import { ssoRoutes } from './features/sso/sso.routes.ts';
import { lockLicences, recordLicencesTaken, teamRepository } from './features/team/index.ts';
import { teamRenameRoutes, teamRoutes } from './features/team/team.routes.ts';
import { callerOfContext } from './http/guard.ts';
import { integrationLookups } from './integration-lookups.ts';

interface FeatureRouteDeps {
  app: FastifyInstance;
  router: Router;
  config: Config;
  db: Db;
  jobs: Jobs;
  redis: Redis | null;
  services: SharedServices;
}

/** Registers every feature; returns what the composition root starts afterwards (the billing schedule). */
export async function registerFeatureRoutes({ app, router, config, db, jobs, redis, services }: FeatureRouteDeps) {
  const {
    guard,
    sessionContext,
    auth,
    sessions,
    limiter,
    mail,
    consoleUrl,
    hubSessions,
    sealer,
    codes,
    keys,
    relyingParty,
    hubClient,
  } = services;
  const development = config.NODE_ENV !== 'production';
  // Four-eyes approval: the features below put their sensitive calls under it (off by default).
  const approvalsRoom = createApprovals(db, { mail, jobs, consoleUrl, teamAdmins: adminsRepository.list });
  const { approvals } = approvalsRoom;

  // Sign-in, the account, the team and its people.
  authRoutes(router, guard, auth, sessions);
  const reset = createPasswordResetService({
    db,
    limiter,
    mail,
    consoleUrl,
    hubSessions,
    // Rooms that build on account's (admins, auth): their answers are handed in.
    administersAnyTeam: async (userId) => (await adminsRepository.teamsOf(db, userId)).length > 0,
    sessionEnds: sessionsRepository,
  });
  accountRoutes(
    router,
    guard,
    createAccountService({ db, limiter, sealer, codes, keys, relyingParty, hubSessions, sessionEnds: sessionsRepository }),
    reset,
  );
  teamRoutes(router, guard, db, hubClient);
  // The order of registration is the order of the OpenAPI document's paths (docs/openapi/server.json).
  dashboardRoutes(router, guard, db);
  teamRenameRoutes(router, guard, db, hubClient);
  analyticsRoutes(router, guard, db);
  membersRoutes(
    router,
    guard,
    db,
    mail,
    { lockLicences, recordLicencesTaken, hubAuthenticatedMembers: devicesRepository.hubAuthenticatedMembers },
    approvals,
  );
  adminsRoutes(router, guard, db, {
    hubSessions,
    mail,
    consoleUrl,
    invites: createOnboardingInvites({ db, consoleUrl, mail, adminTeams: teamRepository.adminTeams }),
    teamNames: teamRepository.findById,
    approvals,
    log: app.log,
  });
  // Just-in-time admin rights: elevations go through approvals (admins.elevate); the sweep ends them.
  const elevations = elevationRoutes(router, guard, db, {
    hubSessions,
    approvals,
    approvalLookups: {
      selfScopes: async (q, teamId) => (await approvals.policyOf(q, teamId)).self_elevate_scopes,
      requestStatus: async (q, teamId, id) => (await approvalsRepository.find(q, teamId, id))?.status,
      approverOf: async (q, id) =>
        (await approvalsRepository.decisions(q, [id])).filter((d) => d.decision === 'approved' && !d.operator).at(-1)?.user_id ??
        null,
    },
  });
  const stopElevationSweep = startElevationSweep(elevations, app.log, config.ELEVATION_SWEEP_INTERVAL_MS);
  app.addHook('onClose', stopElevationSweep);
  signInLinkRoutes(router, guard, auth);

  // Groups, member devices, branding, policies.
  groupsRoutes(router, guard, db, applyFamilyBenefit);
  devicesRoutes(router, guard, db);
  brandingRoutes(app, router, guard, db);
  policiesRoutes(router, guard, db, approvals);

  // Hub integration, and the Hub's security audit, sharing and recovery.
  integrationRoutes(router, guard, db, {
    allowLoopbackHttp: development,
    hubClient,
    // Where a Hub calls back (session checks): PUBLIC_URL, else the address this server listens on.
    selfUrl: () => config.PUBLIC_URL ?? listeningUrl(app),
    lookups: integrationLookups,
  });
  // The server's part of the Hub's audit and recovery services.
  auditPolicyRoutes(router, guard, db);
  // Directory sync: the Hub's signed calls for the team's members and groups.
  directoryRoutes(router, guard, db, mail, integrationLookups);
  recoverySwitchRoutes(router, guard, db);

  // SCIM provisioning: connectors in the console, the SCIM server under /scim/v2.
  const scimBase = () => `${(config.PUBLIC_URL ?? listeningUrl(app)).replace(/\/$/, '')}${SCIM_PREFIX}`;
  const scimConnectors = createScimConnectorsService(db, codes, scimBase, (error) =>
    app.log.warn({ err: error }, 'scim request log not written'),
  );
  scimConnectorsRoutes(router, guard, scimConnectors, approvals);
  await scimRoutes(app, scimConnectors, createScimService(db, mail, scimBase), scimBase, {
    perSecond: config.SCIM_RATE_LIMIT_PER_SECOND,
    redis,
  });

  // Billing and licences.
  const billing = billingRoutes(
    app,
    router,
    guard,
    db,
    jobs,
    {
      fastSpringSecret: config.FASTSPRING_WEBHOOK_SECRET,
      invoicePaidBy: config.INVOICE_PAID_BY,
    },
    approvals,
  );

  // Onboarding wizard and family plan. A cloud with a configured consent app uses its real
  // admin-consent address; outside production the others get this server's stand-in consent page.
  const fallback = development ? standInConsent(consoleUrl) : undefined;
  onboardingRoutes(
    app,
    router,
    guard,
    createOnboardingService(db, {
      providers: {
        google_drive: config.GOOGLE_WORKSPACE_CLIENT_ID
          ? googleWorkspaceConsent(config.GOOGLE_WORKSPACE_CLIENT_ID, config.GOOGLE_WORKSPACE_SCOPES)
          : fallback,
        one_drive: config.MICROSOFT_ENTRA_CLIENT_ID
          ? microsoftEntraConsent(config.MICROSOFT_ENTRA_CLIENT_ID, config.MICROSOFT_ENTRA_SCOPES)
          : fallback,
      },
      callbackUrl: consoleUrl,
      downloadsUrl: config.DOWNLOADS_URL,
      downloadLocations: config.DOWNLOAD_LOCATIONS,
    }),
    { standIn: development },
  );
  familyRoutes(router, guard, db);

  approvalsRoutes(router, guard, approvalsRoom);
  // The Hub's gated calls (event-log settings, SIEM, directory sync), asked over the signed channel.
  hubApprovalRoutes(router, guard, {
    approvals,
    acceptHub: (request, path, teamSlug) => acceptHubCall(db, request, path, teamSlug, integrationLookups),
    sessionCaller: async (sid) => {
      const row = /^[0-9a-f-]{36}$/i.test(sid) ? await sessionContext(sid) : undefined;
      return row ? callerOfContext(row) : undefined;
    },
  });

  // SAML single sign-on.
  ssoRoutes(router, guard, { db, sealer, consoleUrl, allowLoopbackHttp: development, limiter, hubSessions }, approvals);

  return { billing };
}
