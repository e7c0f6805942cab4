import type * as account from './account.ts';
import type * as admins from './admins.ts';
// Security audit, sharing, recovery (issue 6)
import type * as audit from './audit.ts';
import type * as auth from './auth.ts';
// Groups, branding, member devices (issue 4)
import type * as branding from './branding.ts';
import type * as devices from './devices.ts';
import type * as groups from './groups.ts';
import type * as hub from './hub.ts';
// Hub integration (issue 6)
import type * as hubIntegration from './hub-integration.ts';
import type * as integration from './integration.ts';
import type * as people from './people.ts';
// Policies (issue 5)
import type * as policies from './policies.ts';
import type * as recovery from './recovery.ts';
import type { RouteName } from './routes.ts';
// Sign-in and account security (issue 3)
import type * as securityKeys from './security-keys.ts';
import type * as sharing from './sharing.ts';
import type * as signInLinks from './sign-in-links.ts';
import type * as team from './team.ts';

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
  adminInvitation: typeof admins.adminInvitationEndpoint;
  adminInvitationAccept: typeof admins.adminInvitationAcceptEndpoint;
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
  u2fKeys: typeof securityKeys.u2fKeysEndpoint;
  u2fKeyRename: typeof securityKeys.u2fKeyRenameEndpoint;
  u2fKeyRemove: typeof securityKeys.u2fKeyRemoveEndpoint;
  appLoginToken: typeof signInLinks.appLoginTokenEndpoint;
  appLoginVerify: typeof signInLinks.appLoginVerifyEndpoint;
  emailLinkVerify: typeof signInLinks.emailLinkVerifyEndpoint;
  ssoStart: typeof signInLinks.ssoStartEndpoint;
  ssoVerifyToken: typeof signInLinks.ssoVerifyTokenEndpoint;

  // Groups, branding, member devices (issue 4)
  groupCreate: typeof groups.groupCreateEndpoint;
  groupEdit: typeof groups.groupEditEndpoint;
  groupRemove: typeof groups.groupRemoveEndpoint;
  group: typeof groups.groupEndpoint;
  groups: typeof groups.groupsEndpoint;
  groupPriority: typeof groups.groupPriorityEndpoint;
  groupMembersAdd: typeof groups.groupMembersAddEndpoint;
  groupMembersRemove: typeof groups.groupMembersRemoveEndpoint;
  memberDevices: typeof devices.memberDevicesEndpoint;
  branding: typeof branding.brandingEndpoint;
  logoUpload: typeof branding.logoUploadEndpoint;
  logoUpdate: typeof branding.logoUpdateEndpoint;
  logoRemove: typeof branding.logoRemoveEndpoint;

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
  credentials: typeof integration.credentialsEndpoint;
  credentialsAdd: typeof integration.credentialsAddEndpoint;
  credentialsUpdate: typeof integration.credentialsUpdateEndpoint;
  credentialsDelete: typeof integration.credentialsDeleteEndpoint;
  credentialsSetup: typeof integration.credentialsSetupEndpoint;
  hostingPreferences: typeof integration.hostingPreferencesEndpoint;
  enableAuxServices: typeof integration.enableAuxServicesEndpoint;
  disableAuxServices: typeof integration.disableAuxServicesEndpoint;
  hubHealth: typeof hub.hubHealthEndpoint;
  hubConnector: typeof hub.hubConnectorEndpoint;
  hubDeleteConnector: typeof hubIntegration.hubDeleteConnectorEndpoint;
  hubEnabledServices: typeof hubIntegration.hubEnabledServicesEndpoint;
  teamService: typeof integration.teamServiceEndpoint;

  // Security audit, sharing, recovery (issue 6)
  auditSummaries: typeof audit.auditSummariesEndpoint;
  auditSummary: typeof audit.auditSummaryEndpoint;
  auditPolicy: typeof audit.auditPolicyEndpoint;
  sharingLinks: typeof sharing.sharingLinksEndpoint;
  sharingRevoke: typeof sharing.sharingRevokeEndpoint;
  sharingLimits: typeof sharing.sharingLimitsEndpoint;
  sharingLimitsUpdate: typeof sharing.sharingLimitsUpdateEndpoint;
  recoveryRequests: typeof recovery.recoveryRequestsEndpoint;
  recoveryApprove: typeof recovery.recoveryApproveEndpoint;
  recoveryDelete: typeof recovery.recoveryDeleteEndpoint;
  recoveryAdmins: typeof recovery.recoveryAdminsEndpoint;
  recoveryCreateAdminRequest: typeof recovery.recoveryCreateAdminRequestEndpoint;
  recoveryFetchAdminRequests: typeof recovery.recoveryFetchAdminRequestsEndpoint;
  recoveryRemoveAdmin: typeof recovery.recoveryRemoveAdminEndpoint;
  userKeyVerify: typeof recovery.userKeyVerifyEndpoint;
  memberSecretVerify: typeof recovery.memberSecretVerifyEndpoint;
  recoverySettings: typeof recovery.recoverySettingsEndpoint;
  recoveryLinkExpiration: typeof recovery.recoveryLinkExpirationEndpoint;
  recoveryNotification: typeof recovery.recoveryNotificationEndpoint;
  recoveryServiceUpdate: typeof recovery.recoveryServiceUpdateEndpoint;
}

// Every route has its endpoint type, and nothing else is listed.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const apiMapIsComplete: Exact<keyof ApiMap, RouteName> = true;
