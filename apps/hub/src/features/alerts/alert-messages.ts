import type { StoredEvent } from '../eventlogs/index.ts';

/** What an alert says, whichever way it goes: the rule, why it fired, and the first events that matched. */
export interface AlertMessage {
  firingId: string;
  teamSlug: string;
  rule: { id: string; name: string };
  test: boolean;
  group: string;
  firedAt: string;
  eventCount: number;
  events: StoredEvent[];
  /** Where an admin reads the rule's history on the console. */
  link: string;
}

/** Events shown in a message; the rule's history in the console has them all. */
const SHOWN = 10;

export const headline = (m: AlertMessage) =>
  m.test
    ? `Test alert from rule "${m.rule.name}"`
    : `Alert: "${m.rule.name}" — ${m.eventCount} matching event${m.eventCount === 1 ? '' : 's'}${m.group ? ` (${m.group})` : ''}`;

const line = (e: StoredEvent) =>
  `${e.occurred_at}  ${e.activity}  ${e.actor || '-'}${e.target ? ` → ${e.target}` : ''}${e.ip ? `  from ${e.ip}` : ''}  (${e.outcome})`;

export function mailOf(m: AlertMessage) {
  return {
    subject: `[Latchkey] ${headline(m)}`,
    text: [
      headline(m),
      '',
      ...m.events.slice(0, SHOWN).map(line),
      ...(m.eventCount > SHOWN ? [`…and ${m.eventCount - SHOWN} more.`] : []),
      '',
      `The rule's history: ${m.link}`,
    ].join('\n'),
  };
}

/** The generic webhook's JSON body: the firing and its events as the event log keeps them. */
export const webhookBody = (m: AlertMessage) =>
  JSON.stringify({
    type: m.test ? 'alert.test' : 'alert.fired',
    id: m.firingId,
    team_slug: m.teamSlug,
    rule: m.rule,
    group: m.group,
    fired_at: m.firedAt,
    event_count: m.eventCount,
    events: m.events.map(({ team_slug: _t, ...e }) => e),
    link: m.link,
  });

/** Slack's incoming-webhook message: `text` (the notification's fallback) and Block Kit `blocks`. */
export const slackBody = (m: AlertMessage) =>
  JSON.stringify({
    text: headline(m),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: headline(m).slice(0, 150) } },
      ...(m.events.length
        ? [
            {
              type: 'section',
              text: {
                type: 'mrkdwn',
                text: m.events
                  .slice(0, SHOWN)
                  .map((e) => `• \`${line(e)}\``)
                  .join('\n')
                  .slice(0, 3000),
              },
            },
          ]
        : []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${m.link}|Open the rule's history>` }] },
    ],
  });

/**
 * Microsoft Teams (an incoming webhook, or a Workflows "post to a channel when a webhook request is
 * received" flow): a message with one Adaptive Card attachment, as Microsoft documents it.
 */
export const teamsBody = (m: AlertMessage) =>
  JSON.stringify({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: headline(m), weight: 'Bolder', size: 'Medium', wrap: true },
            ...m.events.slice(0, SHOWN).map((e) => ({ type: 'TextBlock', text: line(e), wrap: true, spacing: 'Small' })),
          ],
          actions: [{ type: 'Action.OpenUrl', title: "Open the rule's history", url: m.link }],
        },
      },
    ],
  });
