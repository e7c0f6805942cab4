import { describe, expect, it } from 'vitest';
import { conditionText, destinationInput, destinationValues } from './alert-text.ts';
import { destinationErrors, destinationProblems } from './DestinationFields.tsx';

// The i18n function as a recorder: the key and its values, so the words' parts can be checked.
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}${JSON.stringify(values)}` : key);

describe("alert rules' text and destinations", () => {
  it('says a condition in words: every match, or N in M minutes with its group', () => {
    expect(conditionText(t, { kind: 'every' })).toBe('alerts.condition.every');
    expect(conditionText(t, { kind: 'threshold', count: 5, minutes: 10, group_by: 'ip' })).toBe(
      'alerts.condition.threshold_text{"n":5,"minutes":10} alerts.condition.per_ip',
    );
    expect(conditionText(t, { kind: 'threshold', count: 3, minutes: 1, group_by: null })).toBe(
      'alerts.condition.threshold_text{"n":3,"minutes":1}',
    );
  });

  it("starts a new rule's destinations with an e-mail to the admin, an edit with the rule's own", () => {
    expect(destinationValues([], 'alex@northwind.example').emails).toEqual(['alex@northwind.example']);
    const kept = destinationValues(
      [
        { id: 'w1', kind: 'webhook', url: 'https://hooks.example/a', has_secret: true },
        { id: 's1', kind: 'slack', host: 'hooks.slack.com', has_secret: true },
      ],
      'alex@northwind.example',
    );
    expect(kept.emails).toEqual([]);
    expect(kept.webhook).toMatchObject({ on: true, url: 'https://hooks.example/a', secret: '', stored: true });
    expect(kept.slack).toMatchObject({ on: true, url: '', stored: 'hooks.slack.com' });
  });

  it('sends stored secrets back empty (kept by the Hub) and each destination with its id', () => {
    const v = destinationValues(
      [
        { id: 'e1', kind: 'email', recipients: ['a@x.example'] },
        { id: 'w1', kind: 'webhook', url: 'https://hooks.example/a', has_secret: true },
      ],
      '',
    );
    expect(destinationInput(v, 'e1')).toEqual([
      { id: 'e1', kind: 'email', recipients: ['a@x.example'] },
      { id: 'w1', kind: 'webhook', url: 'https://hooks.example/a', signing_secret: '' },
    ]);
  });

  it("puts the Hub's refusals on the field of the destination sent at that index", () => {
    expect(
      destinationErrors(
        [
          { path: 'destinations.1.url', message: 'alerts.form.url_refused' },
          { path: 'destinations.1.signing_secret', message: 'alerts.form.secret_again' },
          { path: 'destinations.2.url', message: 'invalid url' },
        ],
        ['email', 'webhook', 'slack'],
      ),
    ).toEqual({
      webhook_url: 'alerts.form.url_refused',
      webhook_secret: 'alerts.form.secret_again',
      slack: 'alerts.form.invalid',
    });
  });

  it('refuses before sending: no destination, or a webhook whose secret is short or missing (unless one is stored)', () => {
    const none = destinationValues([], '');
    expect(destinationProblems(none, [])).toEqual({ none: 'alerts.form.destination_required' });
    const webhook = (secret: string, stored: boolean) => ({
      ...none,
      webhook: { on: true, url: 'https://hooks.example/a', secret, stored },
    });
    const sent = [{ kind: 'webhook' }];
    expect(destinationProblems(webhook('', false), sent)).toEqual({ webhook_secret: 'alerts.form.secret_short' });
    expect(destinationProblems(webhook('  short-secret  ', true), sent)).toEqual({ webhook_secret: 'alerts.form.secret_short' });
    expect(destinationProblems(webhook('', true), sent)).toEqual({});
    // The SIEM webhook's minimum, 32 characters.
    expect(destinationProblems(webhook('s'.repeat(31), false), sent)).toEqual({ webhook_secret: 'alerts.form.secret_short' });
    expect(destinationProblems(webhook('s'.repeat(32), false), sent)).toEqual({});
  });
});
