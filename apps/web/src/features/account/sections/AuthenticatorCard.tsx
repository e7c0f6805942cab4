import { OTP_LENGTH } from '@latchkey/contracts/client';
import { Alert, Anchor, Badge, Button, Code, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.ts';
import { digitsOnly } from '../../auth/index.ts';
import { Section, useSubmit } from '../account-ui.tsx';
import { authenticator, useAccountRefresh } from '../api.ts';

function CodeInput({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t(label)}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={OTP_LENGTH}
      value={value}
      onChange={(e) => onChange(digitsOnly(e.currentTarget.value))}
      w={180}
    />
  );
}

type Flow =
  | { step: 'idle' }
  | { step: 'prove'; next: 'change' | 'regenerate' }
  | { step: 'confirm'; mode: 'register' | 'change'; secret: string; url: string }
  | { step: 'codes'; codes: string[] };

export function AuthenticatorCard({
  totpEnabled,
  codesLeft,
  canEnable,
}: {
  totpEnabled: boolean;
  codesLeft: number;
  canEnable: boolean;
}) {
  const { t } = useTranslation();
  const refreshAccount = useAccountRefresh();
  const [flow, setFlow] = useState<Flow>({ step: 'idle' });
  const [code, setCode] = useState('');
  const { busy, run, alert } = useSubmit();
  const refresh = refreshAccount;
  const go = (next: Flow) => {
    setCode('');
    setFlow(next);
  };

  async function startRegister() {
    const setup = await run(authenticator.register);
    if (setup) go({ step: 'confirm', mode: 'register', secret: setup.secret, url: setup.otpauth_url });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (code.length !== OTP_LENGTH) return;
    if (flow.step === 'confirm' && flow.mode === 'register') {
      const done = await run(() => authenticator.verifyRegister(code), 'account.authenticator_enabled');
      if (done) {
        go({ step: 'codes', codes: done.recovery_codes });
        await refresh();
      }
    } else if (flow.step === 'confirm') {
      const done = await run(() => authenticator.verifyChange(code), 'account.authenticator_changed');
      if (done) go({ step: 'idle' });
    } else if (flow.step === 'prove' && flow.next === 'change') {
      const setup = await run(() => authenticator.change(code));
      if (setup) go({ step: 'confirm', mode: 'change', secret: setup.secret, url: setup.otpauth_url });
    } else if (flow.step === 'prove') {
      const done = await run(() => authenticator.regenerateCodes(code));
      if (done) {
        go({ step: 'codes', codes: done.recovery_codes });
        await refresh();
      }
    }
  }

  return (
    <Section title="account.authenticator" testId="authenticator">
      <Group gap="xs">
        <Badge color={totpEnabled ? 'green' : 'gray'} variant="light">
          {t(totpEnabled ? 'account.on' : 'account.off')}
        </Badge>
        <Text size="sm">{t(totpEnabled ? 'account.authenticator_on' : 'account.authenticator_off')}</Text>
      </Group>
      {alert}
      {flow.step === 'idle' && !totpEnabled && (
        <Stack gap="xs">
          {!canEnable && (
            <Text size="sm" c="dimmed">
              {t('account.authenticator_needs_password')}
            </Text>
          )}
          <Group>
            <Button onClick={startRegister} loading={busy} disabled={!canEnable}>
              {t('account.authenticator_setup')}
            </Button>
          </Group>
        </Stack>
      )}
      {flow.step === 'idle' && totpEnabled && (
        <Stack gap="sm">
          <Text size="sm" data-testid="codes-left">
            {t('account.backup_codes_left', { count: codesLeft })}
          </Text>
          <Group>
            <Button variant="default" onClick={() => go({ step: 'prove', next: 'change' })}>
              {t('account.authenticator_change')}
            </Button>
            <Button variant="default" onClick={() => go({ step: 'prove', next: 'regenerate' })}>
              {t('account.backup_codes_regenerate')}
            </Button>
          </Group>
        </Stack>
      )}
      {(flow.step === 'prove' || flow.step === 'confirm') && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {flow.step === 'confirm' && (
              <>
                <Text size="sm">{t('account.authenticator_scan')}</Text>
                <Text size="sm" fw={500}>
                  {t('account.secret_key')}
                </Text>
                <Code block tabIndex={0} data-testid="totp-secret" style={{ letterSpacing: '0.1em', wordBreak: 'break-all' }}>
                  {flow.secret.replace(/(.{4})/g, '$1 ').trim()}
                </Code>
                <Anchor href={flow.url} size="sm">
                  {t('account.open_in_app')}
                </Anchor>
              </>
            )}
            <CodeInput
              label={flow.step === 'prove' ? 'account.current_code' : 'loginpage.code'}
              value={code}
              onChange={setCode}
            />
            <Group>
              <Button type="submit" loading={busy} disabled={code.length !== OTP_LENGTH}>
                {t('account.confirm')}
              </Button>
              <Button variant="subtle" onClick={() => go({ step: 'idle' })}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {flow.step === 'codes' && (
        <Stack gap="sm">
          <Alert color="yellow" variant="light" title={t('account.backup_codes')}>
            {t('account.backup_codes_save')}
          </Alert>
          <SimpleGrid cols={2} spacing="xs" data-testid="backup-codes">
            {flow.codes.map((c) => (
              <Code key={c} fz="sm">
                {c}
              </Code>
            ))}
          </SimpleGrid>
          <Group>
            <Button onClick={() => go({ step: 'idle' })}>{t('account.done')}</Button>
          </Group>
        </Stack>
      )}
    </Section>
  );
}
