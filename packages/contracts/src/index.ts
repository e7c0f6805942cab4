export * from './access.ts';
export * from './account.ts';
export * from './admins.ts';
// Security audit, sharing, recovery (issue 6)
export * from './audit.ts';
export * from './auth.ts';
// Billing and licences (issue 15)
export * from './billing.ts';
// Groups, branding, member devices (issue 4)
export * from './branding.ts';
export * from './constants.ts';
export * from './devices.ts';
export * from './endpoint.ts';
export * from './endpoints.ts';
export * from './errors.ts';
// Event logs and SIEM export (issue 12)
export * from './eventlogs.ts';
export * from './eventlogs-constants.ts';
export * from './family.ts';
export * from './groups.ts';
export * from './hub.ts';
// Hub integration (issue 6)
export * from './hub-integration.ts';
export * from './ingestion.ts';
export * from './integration.ts';
export * from './integration-constants.ts';
export * from './locales.ts';
export * from './logout.ts';
export * from './messages.ts';
export * from './onboarding.ts';
export * from './password-rules.ts';
export * from './people.ts';
// Policies (issue 5)
export * from './policies.ts';
export * from './recovery.ts';
export * from './route-info.ts';
export * from './routes.ts';
// SCIM provisioning (issue 14)
export * from './scim.ts';
// Sign-in and account security (issue 3)
export * from './security-keys.ts';
export * from './services-constants.ts';
export * from './sharing.ts';
export * from './siem-secret-address.ts';
export * from './sign-in-constants.ts';
export * from './sign-in-links.ts';
// SAML single sign-on (issue 13)
export * from './sso.ts';
export * from './team.ts';
export * from './urls.ts';
export * from './versions.ts';
