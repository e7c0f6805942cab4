/**
 * Where each call lives and how it is authenticated, without its schemas: the console's sign-in
 * screens import this (and not zod) so the first page stays small. The endpoints spread these.
 */
export interface RouteInfo {
  method: 'GET' | 'POST';
  path: string;
  /** `device`: a member device's credential from the Hub's ingestion API (the team's apps). */
  auth: 'public' | 'session' | 'hubAuth' | 'device';
  /** Body encoding the client sends; the OAuth refresh call is a form. */
  encoding?: 'json' | 'form';
}

export const ROUTES = {
  login: { method: 'POST', path: '/api/v1/console/auth/login/', auth: 'public' },
  verifyPassword: { method: 'POST', path: '/api/v1/console/auth/verify/password/', auth: 'public' },
  verifyOtp: { method: 'POST', path: '/api/v1/console/auth/verify/otp/', auth: 'public' },
  refreshToken: { method: 'POST', path: '/oauth/refresh/token/', auth: 'public', encoding: 'form' },
  verifyTotp: { method: 'POST', path: '/api/v1/console/auth/verify/totp/', auth: 'public' },
  verifyRecoveryCode: { method: 'POST', path: '/api/v1/console/auth/verify/recovery/code/', auth: 'public' },
  authType: { method: 'POST', path: '/api/v1/console/auth/type/', auth: 'session' },
  authTypeUpdate: { method: 'POST', path: '/api/v1/console/auth/type/update/', auth: 'session' },
  changePassword: { method: 'POST', path: '/api/v1/console/auth/change/password/', auth: 'session' },
  setFirstPassword: { method: 'POST', path: '/api/v1/console/auth/set/first/password/', auth: 'session' },
  totpRegister: { method: 'POST', path: '/api/v1/console/auth/totp/register/', auth: 'session' },
  totpRegisterVerify: { method: 'POST', path: '/api/v1/console/auth/totp/register/verify/', auth: 'session' },
  totpChange: { method: 'POST', path: '/api/v1/console/auth/totp/change/', auth: 'session' },
  totpChangeVerify: { method: 'POST', path: '/api/v1/console/auth/totp/change/verify/', auth: 'session' },
  regenerateRecoveryCodes: { method: 'POST', path: '/api/v1/console/auth/regenerate/recovery/codes/', auth: 'session' },
  passwordResetRequest: { method: 'POST', path: '/api/v1/console/auth/password/reset/request/', auth: 'public' },
  validatePasswordRequest: { method: 'POST', path: '/api/v1/console/auth/validate/password/request/', auth: 'public' },
  changePasswordRequest: { method: 'POST', path: '/api/v1/console/auth/change/password/request/', auth: 'public' },
  setPasswordFirstLogin: { method: 'POST', path: '/api/v1/console/auth/set/password/first/', auth: 'public' },
  u2fRegisterOptions: { method: 'POST', path: '/api/v1/console/auth/u2f/register/', auth: 'session' },
  u2fRegisterVerify: { method: 'POST', path: '/api/v1/console/auth/u2f/register/verify/', auth: 'session' },
  u2fSignInOptions: { method: 'POST', path: '/api/v1/console/auth/u2f/options/', auth: 'public' },
  verifyU2f: { method: 'POST', path: '/api/v1/console/auth/verify/u2f/', auth: 'public' },
  signout: { method: 'POST', path: '/api/v1/user/signout/', auth: 'session' },
  teamInfo: { method: 'POST', path: '/api/v1/team/info/', auth: 'session' },
  adminScope: { method: 'POST', path: '/api/v1/team/admin/scope/', auth: 'session' },
  adminInfo: { method: 'POST', path: '/api/v1/team/admin/info/', auth: 'session' },
  allTeams: { method: 'POST', path: '/api/v1/team/all/', auth: 'session' },
  auxServices: { method: 'POST', path: '/api/v1/aux/services/', auth: 'session' },
  notification: { method: 'POST', path: '/organization/notification/', auth: 'session' },
  dashboardActivity: { method: 'POST', path: '/api/v1/dashboard/stats/activity/', auth: 'session' },
  dashboardProvisioning: { method: 'POST', path: '/api/v1/dashboard/stats/provisioning/data/', auth: 'session' },
  licenceSummary: { method: 'POST', path: '/api/v1/dashboard/stats/licence/summary/', auth: 'session' },
  teamNameEdit: { method: 'POST', path: '/api/v1/team/name/edit/', auth: 'session' },
  analyticsEvent: { method: 'POST', path: '/api/v1/admin/console/analytics/events/add/', auth: 'session' },
  members: { method: 'POST', path: '/api/v1/team/members/', auth: 'session' },
  adminMembers: { method: 'POST', path: '/api/v1/team/admin/members/', auth: 'session' },
  adminAdd: { method: 'POST', path: '/organization/admin/user/add/', auth: 'session' },
  adminRemove: { method: 'POST', path: '/organization/admin/user/remove/', auth: 'session' },
  adminAuthReset: { method: 'POST', path: '/organization/admin/auth/reset/', auth: 'session' },
  membersCount: { method: 'POST', path: '/api/v1/team/members/count/', auth: 'session' },
  membersInvite: { method: 'POST', path: '/api/v1/team/members/invite/', auth: 'session' },
  membersResendInvite: { method: 'POST', path: '/api/v1/team/members/invite/resend/', auth: 'session' },
  membersLicence: { method: 'POST', path: '/api/v1/team/members/licence/update/', auth: 'session' },
  membersStatus: { method: 'POST', path: '/api/v1/team/members/status/update/', auth: 'session' },
  membersRemove: { method: 'POST', path: '/api/v1/team/members/remove/', auth: 'session' },
  membersExport: { method: 'POST', path: '/api/v1/team/members/export/', auth: 'session' },
  hubToken: { method: 'POST', path: '/auth/token/', auth: 'public' },
  hubRefresh: { method: 'POST', path: '/auth/token/refresh/', auth: 'public' },

  // Sign-in and account security (issue 3)
  u2fKeys: { method: 'POST', path: '/api/v1/console/auth/u2f/keys/', auth: 'session' },
  u2fKeyRename: { method: 'POST', path: '/api/v1/console/auth/u2f/keys/rename/', auth: 'session' },
  u2fKeyRemove: { method: 'POST', path: '/api/v1/console/auth/u2f/keys/remove/', auth: 'session' },
  appLoginToken: { method: 'POST', path: '/api/v1/app/console/login/token/', auth: 'session' },
  appLoginVerify: { method: 'POST', path: '/api/v1/console/auth/app/login/verify/', auth: 'public' },
  emailLinkVerify: { method: 'POST', path: '/api/v1/console/auth/email/link/verify/', auth: 'public' },
  ssoStart: { method: 'POST', path: '/sso/login/saml/request/', auth: 'public' },
  ssoVerifyToken: { method: 'POST', path: '/sso/login/verify/token/', auth: 'public' },

  // Groups, branding, member devices (issue 4)
  groupCreate: { method: 'POST', path: '/api/v1/team/group/create/', auth: 'session' },
  groupEdit: { method: 'POST', path: '/api/v1/team/group/edit/', auth: 'session' },
  groupRemove: { method: 'POST', path: '/api/v1/team/group/remove/', auth: 'session' },
  group: { method: 'POST', path: '/api/v1/team/group/', auth: 'session' },
  groups: { method: 'POST', path: '/api/v1/team/groups/', auth: 'session' },
  groupPriority: { method: 'POST', path: '/api/v1/team/group/update/priority/', auth: 'session' },
  groupMembersAdd: { method: 'POST', path: '/api/v1/team/group/members/add/', auth: 'session' },
  groupMembersRemove: { method: 'POST', path: '/api/v1/team/group/members/remove/', auth: 'session' },
  memberDevices: { method: 'POST', path: '/api/v1/team/member/devices/', auth: 'session' },
  branding: { method: 'POST', path: '/organization/account/branding/', auth: 'session' },
  logoUpload: { method: 'POST', path: '/organization/account/logo/', auth: 'session' },
  logoUpdate: { method: 'POST', path: '/organization/account/logo/update/', auth: 'session' },
  logoRemove: { method: 'POST', path: '/organization/account/logo/remove/', auth: 'session' },

  // Policies (issue 5)

  // Hub integration (issue 6)
  credentials: { method: 'POST', path: '/api/v1/credentials/', auth: 'session' },
  credentialsAdd: { method: 'POST', path: '/api/v1/credentials/add/', auth: 'session' },
  credentialsUpdate: { method: 'POST', path: '/api/v1/credentials/update/', auth: 'session' },
  credentialsDelete: { method: 'POST', path: '/api/v1/credentials/delete/', auth: 'session' },
  credentialsSetup: { method: 'POST', path: '/api/v1/credentials/setup/', auth: 'session' },
  hostingPreferences: { method: 'POST', path: '/api/v1/aux/hosting/preferences/', auth: 'session' },
  enableAuxServices: { method: 'POST', path: '/api/v1/policy/team/enable/aux/services/', auth: 'session' },
  disableAuxServices: { method: 'POST', path: '/api/v1/policy/team/disable/aux/services/', auth: 'session' },
  hubHealth: { method: 'GET', path: '/api/v1/server/health/status/', auth: 'public' },
  hubConnector: { method: 'POST', path: '/api/v1/integrate/connector/', auth: 'public' },
  hubDeleteConnector: { method: 'POST', path: '/delete/connector/', auth: 'hubAuth' },
  hubEnabledServices: { method: 'POST', path: '/api/v1/hub/services/', auth: 'hubAuth' },
  teamService: { method: 'POST', path: '/api/v1/policy/team/service/', auth: 'session' },

  // Security audit, sharing, recovery (issue 6)
  auditSummaries: { method: 'POST', path: '/api/v1/audit/vault/summaries/', auth: 'hubAuth' },
  auditSummary: { method: 'POST', path: '/api/v1/audit/vault/summary/', auth: 'hubAuth' },
  auditPolicy: { method: 'POST', path: '/api/v1/policy/team/audit/policy/', auth: 'session' },
  sharingLinks: { method: 'POST', path: '/api/v1/sharing/links/', auth: 'hubAuth' },
  sharingRevoke: { method: 'POST', path: '/api/v1/sharing/links/revoke/', auth: 'hubAuth' },
  sharingLimits: { method: 'POST', path: '/api/v1/sharing/limits/', auth: 'hubAuth' },
  sharingLimitsUpdate: { method: 'POST', path: '/api/v1/sharing/limits/update/', auth: 'hubAuth' },
  recoveryRequests: { method: 'POST', path: '/organization/recovery/admin/requests/fetch/', auth: 'hubAuth' },
  recoveryApprove: { method: 'POST', path: '/organization/recovery/admin/request/', auth: 'hubAuth' },
  recoveryDelete: { method: 'POST', path: '/organization/recovery/admin/request/delete/', auth: 'hubAuth' },
  recoveryAdmins: { method: 'POST', path: '/recovery/admins/fetch/', auth: 'hubAuth' },
  recoveryCreateAdminRequest: { method: 'POST', path: '/recovery/create/admin/request/', auth: 'hubAuth' },
  recoveryFetchAdminRequests: { method: 'POST', path: '/recovery/fetch/admin/request/', auth: 'hubAuth' },
  recoveryRemoveAdmin: { method: 'POST', path: '/group/member/remove/', auth: 'hubAuth' },
  userKeyVerify: { method: 'POST', path: '/user/key/verify/', auth: 'hubAuth' },
  memberSecretVerify: { method: 'POST', path: '/group/member/secret/verify/', auth: 'hubAuth' },
  recoverySettings: { method: 'POST', path: '/recovery/settings/', auth: 'hubAuth' },
  recoveryLinkExpiration: { method: 'POST', path: '/recovery/link/expiration/period/update/', auth: 'hubAuth' },
  recoveryNotification: { method: 'POST', path: '/recovery/notification/recipient/type/update/', auth: 'hubAuth' },
  recoveryServiceUpdate: { method: 'POST', path: '/api/v1/policy/team/recovery/service/update/', auth: 'session' },
} as const satisfies Record<string, RouteInfo>;

export type RouteName = keyof typeof ROUTES;
