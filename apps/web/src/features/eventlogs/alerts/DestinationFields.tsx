import { WEBHOOK_SIGNING_SECRET_MIN } from '@latchkey/contracts/client';
import { Checkbox, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.ts';
import { AdminRecipientPicker } from './AdminRecipientPicker.tsx';
import type { DestinationValues } from './alert-text.ts';

export type DestinationErrors = Partial<Record<'email' | 'webhook_url' | 'webhook_secret' | 'slack' | 'teams', string>>;

/**
 * Where a rule's alerts go: e-mail to administrators of the team, a signed webhook, Slack, Teams, the SIEM export.
 * Secrets are never shown back: left empty on an edit, the stored one is kept.
 */
export function DestinationFields({
  value,
  onChange,
  errors,
}: {
  value: DestinationValues;
  onChange: (v: DestinationValues) => void;
  errors: DestinationErrors;
}) {
  const { t } = useTranslation();
  const set = <K extends keyof DestinationValues>(key: K, patch: Partial<DestinationValues[K]>) =>
    onChange({ ...value, [key]: { ...(value[key] as object), ...patch } });
  const err = (k: keyof DestinationErrors) => (errors[k] ? t(errors[k]) : undefined);
  return (
    <Stack gap="sm" data-testid="alert-destinations">
      <Text fw={600} size="sm">
        {t('alerts.form.destinations')}
      </Text>
      <AdminRecipientPicker value={value.emails} onChange={(emails) => onChange({ ...value, emails })} error={err('email')} />
      <Checkbox
        label={t('alerts.dest.webhook')}
        checked={value.webhook.on}
        onChange={(e) => set('webhook', { on: e.currentTarget.checked })}
        data-testid="alert-dest-webhook"
      />
      {value.webhook.on && (
        <Stack gap="xs" pl="lg">
          <TextInput
            label={t('alerts.dest.url')}
            placeholder="https://"
            value={value.webhook.url}
            onChange={(e) => set('webhook', { url: e.currentTarget.value })}
            maxLength={500}
            error={err('webhook_url')}
            data-testid="alert-dest-webhook-url"
          />
          <PasswordInput
            label={t('alerts.dest.secret')}
            description={t('alerts.dest.secret_hint')}
            placeholder={value.webhook.stored ? t('siem.form.secret_kept') : undefined}
            value={value.webhook.secret}
            onChange={(e) => set('webhook', { secret: e.currentTarget.value })}
            maxLength={200}
            error={err('webhook_secret')}
            data-testid="alert-dest-webhook-secret"
          />
        </Stack>
      )}
      {(['slack', 'teams'] as const).map((kind) => (
        <Stack gap="xs" key={kind}>
          <Checkbox
            label={t(`alerts.dest.${kind}`)}
            checked={value[kind].on}
            onChange={(e) => set(kind, { on: e.currentTarget.checked })}
            data-testid={`alert-dest-${kind}`}
          />
          {value[kind].on && (
            <TextInput
              pl="lg"
              label={t('alerts.dest.incoming_url')}
              placeholder={value[kind].stored ? t('alerts.dest.kept_host', { host: value[kind].stored }) : 'https://'}
              value={value[kind].url}
              onChange={(e) => set(kind, { url: e.currentTarget.value })}
              maxLength={500}
              error={err(kind)}
              data-testid={`alert-dest-${kind}-url`}
            />
          )}
        </Stack>
      ))}
      <Checkbox
        label={t('alerts.dest.siem')}
        description={t('alerts.dest.siem_hint')}
        checked={value.siem.on}
        onChange={(e) => set('siem', { on: e.currentTarget.checked })}
        data-testid="alert-dest-siem"
      />
    </Stack>
  );
}

/**
 * What the form refuses before sending: no destination at all, or a webhook without a secret long
 * enough (left empty, a stored one is kept).
 */
export function destinationProblems(value: DestinationValues, sent: readonly unknown[]): DestinationErrors & { none?: string } {
  const out: DestinationErrors & { none?: string } = {};
  if (sent.length === 0) out.none = 'alerts.form.destination_required';
  const secret = value.webhook.secret.trim();
  if (value.webhook.on && (secret ? secret.length < WEBHOOK_SIGNING_SECRET_MIN : !value.webhook.stored))
    out.webhook_secret = 'alerts.form.secret_short';
  return out;
}

/** The Hub's field refusals (paths into the destinations sent) → the fields that show them. */
export function destinationErrors(issues: { path: string; message: string }[], sentKinds: string[]): DestinationErrors {
  const out: DestinationErrors = {};
  for (const issue of issues) {
    const m = /^destinations\.(\d+)(?:\.(\w+))?/.exec(issue.path);
    // A refusal with a whole message of its own (recipients who are not administrators) shows above the form.
    if (!m || issue.message.startsWith('errors.')) continue;
    const kind = sentKinds[Number(m[1])];
    // The Hub's own message keys (alerts.form.*) as they are; a schema's plain words as the form's.
    const secretMissing = m[2] === 'signing_secret' && !issue.message.startsWith('alerts.');
    const message = issue.message.startsWith('alerts.')
      ? issue.message
      : secretMissing
        ? 'alerts.form.secret_short'
        : 'alerts.form.invalid';
    if (kind === 'webhook') out[m[2] === 'signing_secret' ? 'webhook_secret' : 'webhook_url'] = message;
    else if (kind === 'email') out.email = 'alerts.form.invalid_email';
    else if (kind === 'slack' || kind === 'teams') out[kind] = message;
  }
  return out;
}
