// The admins feature's public entry: what other features (and the operator's command line) may use.

export { isTeamAdminEmail, teamAdminEmails } from './admin-emails.ts';
export { recordAdminEvent } from './admin-events.ts';
export { adminsRepository } from './admins.repository.ts';
export { resetAdminAuth } from './admins.service.ts';
export { breakGlassElevation, scopesHeld } from './elevations.service.ts';
