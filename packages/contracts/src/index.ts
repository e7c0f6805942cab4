export * from './access.ts';
export * from './account.ts';
export * from './admins.ts';
export * from './api-map.ts';
export * from './auth.ts';
export * from './constants.ts';
export * from './endpoint.ts';
export * from './errors.ts';
export * from './hub.ts';
export * from './locales.ts';
export * from './logout.ts';
export * from './messages.ts';
export * from './people.ts';
export * from './routes.ts';
export * from './team.ts';
export * from './urls.ts';
export * from './versions.ts';

// Sign-in and account security (issue 3)

// Groups, branding, member devices (issue 4)

// Policies (issue 5)
export * from './policies.ts';

// Hub integration (issue 6)

// Security audit, sharing, recovery (issue 6)
