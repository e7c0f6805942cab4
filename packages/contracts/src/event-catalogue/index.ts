import { APP_ACTIVITIES, DIRECTORY_ACTIVITIES, EVENT_LOG_ACTIVITIES, RECOVERY_ACTIVITIES, SHARING_ACTIVITIES } from './hub.ts';
import {
  ADMIN_ACTIVITIES,
  APPROVAL_ACTIVITIES,
  AUTH_ACTIVITIES,
  POLICY_ACTIVITIES,
  SCIM_ACTIVITIES,
  SSO_ACTIVITIES,
} from './server-access.ts';
import {
  BILLING_ACTIVITIES,
  BRANDING_ACTIVITIES,
  FAMILY_ACTIVITIES,
  GROUP_ACTIVITIES,
  INTEGRATION_ACTIVITIES,
  MEMBER_ACTIVITIES,
  ONBOARDING_ACTIVITIES,
} from './server-team.ts';
import type { ActivitySeverity, ActivitySource } from './types.ts';

export { ACTIVITY_SEVERITIES, type ActivitySeverity, type ActivitySource } from './types.ts';

/**
 * The activity catalogue: every activity the server, the Hub and members' apps write, declared
 * once, by component (the event's `component` column). The event log's table, filters and
 * details, the exports' label column and docs/events.md all read it; the writers' `activity`
 * parameter is typed by it, so code cannot write an activity it lacks.
 */
export const ACTIVITY_COMPONENTS = {
  auth: AUTH_ACTIVITIES,
  admins: ADMIN_ACTIVITIES,
  approvals: APPROVAL_ACTIVITIES,
  policies: POLICY_ACTIVITIES,
  members: MEMBER_ACTIVITIES,
  groups: GROUP_ACTIVITIES,
  sso: SSO_ACTIVITIES,
  scim: SCIM_ACTIVITIES,
  directory_sync: DIRECTORY_ACTIVITIES,
  billing: BILLING_ACTIVITIES,
  branding: BRANDING_ACTIVITIES,
  family_plan: FAMILY_ACTIVITIES,
  integration: INTEGRATION_ACTIVITIES,
  recovery: RECOVERY_ACTIVITIES,
  sharing: SHARING_ACTIVITIES,
  event_logs: EVENT_LOG_ACTIVITIES,
  onboarding: ONBOARDING_ACTIVITIES,
  app: APP_ACTIVITIES,
} as const;

export type ActivityComponent = keyof typeof ACTIVITY_COMPONENTS;
type Codes<K extends ActivityComponent> = keyof (typeof ACTIVITY_COMPONENTS)[K]['activities'] & string;
/** Every activity code the catalogue declares. */
export type ActivityCode = { [K in ActivityComponent]: Codes<K> }[ActivityComponent];

/** One declared activity, flattened. */
export interface CatalogueEntry {
  code: ActivityCode;
  component: ActivityComponent;
  severity: ActivitySeverity;
  fields: readonly string[];
  sources: readonly ActivitySource[];
}

export const ACTIVITY_CATALOGUE: readonly CatalogueEntry[] = Object.entries(ACTIVITY_COMPONENTS).flatMap(([component, spec]) =>
  Object.entries(spec.activities as Record<string, { severity: ActivitySeverity; fields?: readonly string[] }>).map(
    ([code, a]) => ({
      code: code as ActivityCode,
      component: component as ActivityComponent,
      severity: a.severity,
      fields: a.fields ?? [],
      sources: spec.sources,
    }),
  ),
);

const BY_CODE = new Map<string, CatalogueEntry>(ACTIVITY_CATALOGUE.map((e) => [e.code, e]));

/** The declaration of `code`, or undefined for a code the catalogue lacks (an older log's, a newer server's). */
export const catalogueEntry = (code: string): CatalogueEntry | undefined => BY_CODE.get(code);
export const isCataloguedActivity = (code: string): code is ActivityCode => BY_CODE.has(code);

/** The i18n keys of an activity's label and one-line description (both in every locale). */
export const activityLabelKey = (code: string) => `activity.label.${code}`;
export const activityDescriptionKey = (code: string) => `activity.description.${code}`;
export const componentLabelKey = (component: string) => `activity.component.${component}`;

/** `member_invited` (a history table's action name) → the activity `member.invited` it is logged as. */
export type ActionName<C extends string = ActivityCode> = C extends `${infer A}.${infer B}`
  ? A extends `${string}_${string}`
    ? never
    : `${A}_${B}`
  : never;
/** The `auth.` activities by the kind the server's security history names them (`sign_in_failed`). */
export type SecurityKind = ActivityOf<'auth'>;
/** The codes of the activities whose code starts with `prefix.`, without it (`directory.synced` → `synced`). */
export type ActivityOf<P extends string> = ActivityCode extends infer C ? (C extends `${P}.${infer K}` ? K : never) : never;
