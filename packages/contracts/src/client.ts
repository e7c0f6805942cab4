/**
 * The zod-free part of the contracts, for the console's first page. Everything here is plain
 * data and functions; schemas stay in the full entry point.
 */
export * from './access.ts';
export type { LoginSuccess, TokenPair } from './auth.ts';
export type { Invoice, InvoiceDetail, Plan, PlanQuote, ProRated, Subscription } from './billing.ts';
export * from './billing-constants.ts';
export type { TeamLogo } from './branding.ts';
export * from './constants.ts';
export type { ActivityStats, LicenceSummary, Notification, ProvisioningEntry } from './dashboard.ts';
export type { MemberDevice } from './devices.ts';
export type { EndpointInput, EndpointOutput } from './endpoint.ts';
export type { ApiMap, EndpointName } from './endpoints.ts';
export type { ErrorReply } from './errors.ts';
export type { EventFilters, EventRecord } from './eventlogs.ts';
export * from './eventlogs-constants.ts';
export type { FamilyBenefit } from './family.ts';
export type { Group, GroupMember } from './groups.ts';
export * from './groups-constants.ts';
export type { HubTokens } from './hub.ts';
export type { Credential } from './integration.ts';
export * from './integration-constants.ts';
export * from './locales.ts';
export { LOGOUT_REASONS, type LogoutReason } from './logout.ts';
export type { Member, MemberFilters } from './members.ts';
export * from './members-constants.ts';
export * from './messages.ts';
export * from './onboarding-constants.ts';
export * from './password-rules.ts';
export type { EffectivePolicyItem, HistoryEntry, PolicyGroup } from './policies.ts';
export * from './policy-catalogue.ts';
export * from './policy-strictness.ts';
export type { RouteInfo } from './route-info.ts';
export type { RouteName } from './routes.ts';
export type { ScimConnector, ScimRequest } from './scim.ts';
export * from './scim-constants.ts';
export type { SecurityKey } from './security-keys.ts';
export * from './services-constants.ts';
export type { SiemForm, SiemTool } from './siem.ts';
export * from './siem-secret-address.ts';
export * from './sign-in-constants.ts';
export type { SsoConfig, SsoTestResult } from './sso.ts';
export * from './sso-constants.ts';
export * from './sso-presets.ts';
export type { HubServer, Team } from './team.ts';
export * from './urls.ts';
export * from './versions.ts';
