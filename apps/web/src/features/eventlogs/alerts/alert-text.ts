import type { AlertDestination, AlertDestinationInput, AlertRule } from '@latchkey/contracts/client';

type T = (key: string, values?: Record<string, unknown>) => string;

export interface ConditionValues {
  kind: 'every' | 'threshold';
  count: number;
  minutes: number;
  group_by: 'none' | 'actor' | 'ip' | 'target';
}

/** A rule's condition as the Hub keeps it → the form's values. */
export function conditionValues(c: Record<string, unknown> | undefined): ConditionValues {
  if (c?.kind !== 'threshold') return { kind: 'every', count: 5, minutes: 10, group_by: 'none' };
  const group = c.group_by;
  return {
    kind: 'threshold',
    count: Number(c.count ?? 5),
    minutes: Number(c.minutes ?? 10),
    group_by: group === 'actor' || group === 'ip' || group === 'target' ? group : 'none',
  };
}

/** "5 matches in 10 minutes per IP address", or "Every match". */
export function conditionText(t: T, c: Record<string, unknown>): string {
  const v = conditionValues(c);
  if (v.kind === 'every') return t('alerts.condition.every');
  const base = t('alerts.condition.threshold_text', { n: v.count, minutes: v.minutes });
  return v.group_by === 'none' ? base : `${base} ${t(`alerts.condition.per_${v.group_by}`)}`;
}

/** One destination in a few words: the recipients, the webhook's address, the Slack or Teams host. */
export function destinationText(t: T, d: AlertDestination): string {
  switch (d.kind) {
    case 'email':
      return d.recipients.join(', ');
    case 'webhook':
      return `${t('alerts.dest.webhook')} ${new URL(d.url).host}`;
    case 'slack':
      return `Slack ${d.host}`;
    case 'teams':
      return `Teams ${d.host}`;
    default:
      return t('alerts.dest.siem');
  }
}

/** The destinations part of the form: one of each kind at most. */
export interface DestinationValues {
  emails: string[];
  webhook: { on: boolean; id?: string | undefined; url: string; secret: string; stored: boolean };
  slack: { on: boolean; id?: string | undefined; url: string; stored: string };
  teams: { on: boolean; id?: string | undefined; url: string; stored: string };
  siem: { on: boolean; id?: string | undefined };
}

export function destinationValues(list: readonly AlertDestination[], myEmail: string): DestinationValues {
  const v: DestinationValues = {
    emails: [],
    webhook: { on: false, url: '', secret: '', stored: false },
    slack: { on: false, url: '', stored: '' },
    teams: { on: false, url: '', stored: '' },
    siem: { on: false },
  };
  for (const d of list) {
    if (d.kind === 'email') v.emails.push(...d.recipients);
    if (d.kind === 'webhook') v.webhook = { on: true, id: d.id, url: d.url, secret: '', stored: d.has_secret };
    if (d.kind === 'slack') v.slack = { on: true, id: d.id, url: '', stored: d.host };
    if (d.kind === 'teams') v.teams = { on: true, id: d.id, url: '', stored: d.host };
    if (d.kind === 'siem') v.siem = { on: true, id: d.id };
  }
  if (list.length === 0 && myEmail) v.emails = [myEmail];
  return v;
}

const withId = (id: string | undefined) => (id ? { id } : {});

/** The form's destinations → what the Hub takes (an empty secret keeps the stored one). */
export function destinationInput(v: DestinationValues, emailId?: string): AlertDestinationInput[] {
  const out: AlertDestinationInput[] = [];
  if (v.emails.length) out.push({ ...withId(emailId), kind: 'email', recipients: v.emails });
  if (v.webhook.on)
    out.push({ ...withId(v.webhook.id), kind: 'webhook', url: v.webhook.url.trim(), signing_secret: v.webhook.secret.trim() });
  if (v.slack.on) out.push({ ...withId(v.slack.id), kind: 'slack', url: v.slack.url.trim() });
  if (v.teams.on) out.push({ ...withId(v.teams.id), kind: 'teams', url: v.teams.url.trim() });
  if (v.siem.on) out.push({ ...withId(v.siem.id), kind: 'siem' });
  return out;
}

/** The Hub's refusal of one field (`destinations.<n>.url`…), as the index of the destination sent. */
export function hubFieldErrors(error: unknown): { path: string; message: string }[] {
  const issues = (error as { issues?: { path: string; message: string }[] } | null)?.issues;
  return Array.isArray(issues) ? issues : [];
}

export type { AlertRule };
