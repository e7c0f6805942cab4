/**
 * The zod-free part of the contracts, for the console's first page. Everything here is plain
 * data and functions; schemas stay in the full entry point.
 */
export * from './access.ts';
export type { LoginSuccess, TokenPair } from './auth.ts';
export type { TeamLogo } from './branding.ts';
export * from './constants.ts';
export type { MemberDevice } from './devices.ts';
export type { EndpointInput, EndpointOutput } from './endpoint.ts';
export type { ApiMap, EndpointName } from './endpoints.ts';
export type { ErrorReply } from './errors.ts';
export type { Group, GroupMember } from './groups.ts';
export * from './groups-constants.ts';
export type { HubTokens } from './hub.ts';
export type { Credential } from './integration.ts';
// Hub integration (issue 6)
export * from './integration-constants.ts';
export * from './locales.ts';
export { LOGOUT_REASONS, type LogoutReason } from './logout.ts';
export * from './messages.ts';
export * from './password-rules.ts';
export type {
  ActivityStats,
  LicenceSummary,
  Member,
  MemberFilters,
  Notification,
  ProvisioningEntry,
} from './people.ts';
export * from './people-constants.ts';
// Policies (issue 5)
export type { EffectivePolicyItem, HistoryEntry, PolicyGroup } from './policies.ts';
export * from './policy-catalogue.ts';
export type { RouteInfo } from './route-info.ts';
export type { RouteName } from './routes.ts';
export type { SecurityKey } from './security-keys.ts';
export * from './services-constants.ts';
export * from './sign-in-constants.ts';
export type { SsoConfig, SsoTestResult } from './sso.ts';
// SAML single sign-on (issue 13)
export * from './sso-constants.ts';
export type { HubServer, Team } from './team.ts';
export * from './urls.ts';
export * from './versions.ts';
