/**
 * What the console says about an action class (its code is the contracts' APPROVAL_ACTIONS key):
 * its label, the area it belongs to, and the screen where it is made.
 */

/** The areas the policy groups its action classes by, in the order the policy card lists them. */
export const AREAS = ['admins', 'policies', 'sso', 'scim', 'directory', 'eventlogs', 'members', 'billing', 'approvals'] as const;
export type Area = (typeof AREAS)[number];

/** An action's area: its code's first part, with the SIEM's actions beside the event logs'. */
export const areaOf = (action: string): Area => {
  const prefix = action.split('.')[0] ?? '';
  if (prefix === 'siem') return 'eventlogs';
  return (AREAS as readonly string[]).includes(prefix) ? (prefix as Area) : 'approvals';
};

/** The screens (console paths) where each area's actions are made. */
const SCREENS: Record<Area, readonly string[]> = {
  admins: ['/settings/manage-administrators'],
  policies: ['/policies', '/policies/history'],
  sso: ['/settings/sso-connector'],
  scim: ['/settings/scim-connectors'],
  directory: ['/settings/directory-sync'],
  eventlogs: ['/settings/eventlogs', '/eventlogs'],
  members: ['/users'],
  billing: ['/billing'],
  approvals: ['/settings/approvals'],
};

/** Whether an action is made on the screen at `path` (a policy change's page is under the history). */
export const madeOn = (action: string, path: string): boolean =>
  SCREENS[areaOf(action)].some((screen) => path === screen || path.startsWith(`${screen}/`));

/** The action's label key: "Relax a policy", "Remove an administrator". */
export const actionLabel = (action: string): string => `approvals.action.${action}`;

/** Whether any gated action is made on the screen at `path`. */
export const isGatedScreen = (path: string): boolean =>
  Object.values(SCREENS).some((screens) => screens.some((screen) => path === screen || path.startsWith(`${screen}/`)));
