import type * as account from './account.ts';
import type * as admins from './admins.ts';
import type * as auth from './auth.ts';
import type * as hub from './hub.ts';
import type * as people from './people.ts';
import type { RouteName } from './routes.ts';
import type * as team from './team.ts';

// Sign-in and account security (issue 3)

// Groups, branding, member devices (issue 4)

// Policies (issue 5)
import type * as policies from './policies.ts';

// Hub integration (issue 6)

// Security audit, sharing, recovery (issue 6)

/** Each route name's endpoint, as types only: lets the console type its calls without loading zod. */
export interface ApiMap {
  login: typeof auth.loginEndpoint;
  verifyPassword: typeof auth.verifyPasswordEndpoint;
  verifyOtp: typeof auth.verifyOtpEndpoint;
  refreshToken: typeof auth.refreshTokenEndpoint;
  verifyTotp: typeof account.verifyTotpEndpoint;
  verifyRecoveryCode: typeof account.verifyRecoveryCodeEndpoint;
  authType: typeof account.accountSecurityEndpoint;
  authTypeUpdate: typeof account.updateAuthTypeEndpoint;
  changePassword: typeof account.changePasswordEndpoint;
  setFirstPassword: typeof account.setFirstPasswordEndpoint;
  totpRegister: typeof account.totpRegisterEndpoint;
  totpRegisterVerify: typeof account.totpRegisterVerifyEndpoint;
  totpChange: typeof account.totpChangeEndpoint;
  totpChangeVerify: typeof account.totpChangeVerifyEndpoint;
  regenerateRecoveryCodes: typeof account.regenerateRecoveryCodesEndpoint;
  passwordResetRequest: typeof account.requestPasswordResetEndpoint;
  validatePasswordRequest: typeof account.validatePasswordRequestEndpoint;
  changePasswordRequest: typeof account.changePasswordRequestEndpoint;
  setPasswordFirstLogin: typeof account.setPasswordFirstLoginEndpoint;
  u2fRegisterOptions: typeof account.u2fRegisterOptionsEndpoint;
  u2fRegisterVerify: typeof account.u2fRegisterVerifyEndpoint;
  u2fSignInOptions: typeof account.u2fSignInOptionsEndpoint;
  verifyU2f: typeof account.verifyU2fEndpoint;
  signout: typeof auth.signoutEndpoint;
  teamInfo: typeof team.teamInfoEndpoint;
  adminScope: typeof team.adminScopeEndpoint;
  adminInfo: typeof team.adminInfoEndpoint;
  allTeams: typeof team.allTeamsEndpoint;
  auxServices: typeof team.auxServicesEndpoint;
  notification: typeof people.notificationEndpoint;
  dashboardActivity: typeof people.dashboardActivityEndpoint;
  dashboardProvisioning: typeof people.dashboardProvisioningEndpoint;
  licenceSummary: typeof people.licenceSummaryEndpoint;
  teamNameEdit: typeof people.teamNameEditEndpoint;
  analyticsEvent: typeof people.analyticsEventEndpoint;
  members: typeof people.membersEndpoint;
  adminMembers: typeof admins.adminMembersEndpoint;
  adminAdd: typeof admins.adminAddEndpoint;
  adminRemove: typeof admins.adminRemoveEndpoint;
  adminAuthReset: typeof admins.adminAuthResetEndpoint;
  membersCount: typeof people.membersCountEndpoint;
  membersInvite: typeof people.membersInviteEndpoint;
  membersResendInvite: typeof people.membersResendInviteEndpoint;
  membersLicence: typeof people.membersLicenceEndpoint;
  membersStatus: typeof people.membersStatusEndpoint;
  membersRemove: typeof people.membersRemoveEndpoint;
  membersExport: typeof people.membersExportEndpoint;
  hubToken: typeof hub.hubTokenEndpoint;
  hubRefresh: typeof hub.hubRefreshEndpoint;

  // Sign-in and account security (issue 3)

  // Groups, branding, member devices (issue 4)

  // Policies (issue 5)
  policyTeam: typeof policies.policyTeamEndpoint;
  policyTeamUpdate: typeof policies.policyTeamUpdateEndpoint;
  policyGroups: typeof policies.policyGroupsEndpoint;
  policyGroup: typeof policies.policyGroupEndpoint;
  policyGroupUpdate: typeof policies.policyGroupUpdateEndpoint;
  policyHistory: typeof policies.policyHistoryEndpoint;
  policyHistoryDiff: typeof policies.policyHistoryDiffEndpoint;
  policyHistoryRestore: typeof policies.policyHistoryRestoreEndpoint;
  policyImpact: typeof policies.policyImpactEndpoint;
  policyEffective: typeof policies.policyEffectiveEndpoint;

  // Hub integration (issue 6)

  // Security audit, sharing, recovery (issue 6)
}

// Every route has its endpoint type, and nothing else is listed.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const apiMapIsComplete: Exact<keyof ApiMap, RouteName> = true;
