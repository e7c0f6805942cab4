/**
 * Where each call lives and how it is authenticated, without its schemas: the console's sign-in
 * screens import this (and not zod) so the first page stays small. The endpoints spread these.
 */
export interface RouteInfo {
  method: 'GET' | 'POST';
  path: string;
  auth: 'public' | 'session' | 'hubAuth';
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

  // Groups, branding, member devices (issue 4)

  // Policies (issue 5)
  policyTeam: { method: 'POST', path: '/api/v1/policy/team/', auth: 'session' },
  policyTeamUpdate: { method: 'POST', path: '/api/v1/policy/team/update/', auth: 'session' },
  policyGroups: { method: 'POST', path: '/api/v1/policy/team/groups/', auth: 'session' },
  policyGroup: { method: 'POST', path: '/api/v1/policy/team/group/', auth: 'session' },
  policyGroupUpdate: { method: 'POST', path: '/api/v1/policy/team/group/update/', auth: 'session' },
  policyHistory: { method: 'POST', path: '/api/v1/policy/team/history/', auth: 'session' },
  policyHistoryDiff: { method: 'POST', path: '/api/v1/policy/team/history/diff/', auth: 'session' },
  policyHistoryRestore: { method: 'POST', path: '/api/v1/policy/team/history/restore/', auth: 'session' },
  policyImpact: { method: 'POST', path: '/api/v1/policy/team/impact/', auth: 'session' },
  policyEffective: { method: 'POST', path: '/api/v1/policy/team/member/effective/', auth: 'session' },

  // Hub integration (issue 6)

  // Security audit, sharing, recovery (issue 6)
} as const satisfies Record<string, RouteInfo>;

export type RouteName = keyof typeof ROUTES;
