/** How much an activity matters to an admin reading the log or writing an alert rule on it. */
export const ACTIVITY_SEVERITIES = ['info', 'notice', 'warning', 'critical'] as const;
export type ActivitySeverity = (typeof ACTIVITY_SEVERITIES)[number];

/** Who writes an activity: the licence server, the team's Hub, or the members' apps (through the Hub's ingestion). */
export type ActivitySource = 'server' | 'hub' | 'app';

/** One activity's declaration: its severity and the detail keys it carries (its description's parameters besides actor and target). */
export interface ActivitySpec {
  readonly severity: ActivitySeverity;
  readonly fields?: readonly string[];
}

/** The activities of one component (the event's `component` column), and who writes them. */
export interface ComponentSpec<C extends string = string> {
  readonly sources: readonly ActivitySource[];
  readonly activities: Readonly<Record<C, ActivitySpec>>;
}
