import { type AccessRule, ALL_TEAM_TYPES, DEFAULT_ROLES } from '@latchkey/contracts/client';

/** Who opens the approvals screen: every admin who could ask or approve (the approvals calls' own rule). */
export const APPROVALS_RULE: AccessRule = { roles: DEFAULT_ROLES, teamTypes: ALL_TEAM_TYPES };
