import { OTP_LENGTH } from '@latchkey/contracts/client';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  PasswordInput,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { NewPasswordFields } from '../../components/NewPasswordFields.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { call } from '../../lib/api.ts';
import { fieldProps, newPasswordErrors } from '../../lib/form.ts';
import { limitProps, PASSWORD_MAX } from '../../lib/limits.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { digitsOnly } from '../auth/index.ts';
import { Section, useSubmit } from './account-ui.tsx';
import { SecurityKeysCard } from './SecurityKeysCard.tsx';

const useSummary = () => {
  const team = useSession()?.team_slug ?? '';
  return useQuery({ queryKey: ['account', team, 'security'], queryFn: () => call('authType', {}) });
};

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

/** spec §2 /settings/account-security: sign-in method, password, authenticator and backup codes. */
export function AccountSecurity() {
  const summary = useSummary();
  if (summary.isError) return <DataFetchError onRetry={() => void summary.refetch()} />;
  if (!summary.data)
    return (
      <Stack aria-busy="true">
        <Skeleton h={160} />
        <Skeleton h={220} />
      </Stack>
    );
  const data = summary.data;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <AuthenticatorCard
        totpEnabled={data.totp_enabled}
        codesLeft={data.recovery_codes_left}
        canEnable={data.auth_type === 'password' && data.has_password}
      />
      <SecurityKeysCard canAdd={data.auth_type === 'password' && data.has_password} hasPassword={data.has_password} />
      {data.has_password ? <ChangePasswordCard /> : <FirstPasswordCard />}
      <SignInMethodCard current={data.auth_type} totpEnabled={data.totp_enabled} hasPassword={data.has_password} />
    </SimpleGrid>
  );
}

function SignInMethodCard({
  current,
  totpEnabled,
  hasPassword,
}: {
  current: 'password' | 'otp';
  totpEnabled: boolean;
  hasPassword: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { auth_type: current, password: '' },
    validate: { password: (value) => (value ? null : 'please enter your password') },
  });
  const { busy, run, alert } = useSubmit();
  const submit = form.onSubmit(async (values) => {
    const done = await run(() => call('authTypeUpdate', values), 'account.method_saved');
    if (done) {
      form.setFieldValue('password', '');
      await queryClient.invalidateQueries({ queryKey: ['account'] });
    }
  });
  return (
    <Section title="account.sign_in_method" testId="sign-in-method">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {alert}
          <Radio.Group
            value={form.values.auth_type}
            onChange={(v) => form.setFieldValue('auth_type', v === 'otp' ? 'otp' : 'password')}
          >
            <Stack gap="xs">
              <Radio value="password" label={t('account.method_password')} />
              <Radio value="otp" label={t('account.method_otp')} disabled={totpEnabled} />
            </Stack>
          </Radio.Group>
          {totpEnabled && (
            <Text size="xs" c="dimmed">
              {t('account.method_otp_needs_no_authenticator')}
            </Text>
          )}
          {hasPassword && (
            <PasswordInput
              {...limitProps(PASSWORD_MAX)}
              label={t('account.current_password')}
              autoComplete="current-password"
              {...fieldProps(form, 'password', t)}
            />
          )}
          <Group>
            <Button type="submit" loading={busy} disabled={form.values.auth_type === current || !hasPassword}>
              {t('account.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function ChangePasswordCard() {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { old: '', password: '', again: '' },
    validate: (v) => ({
      ...(v.old ? {} : { old: 'please enter your password' }),
      ...newPasswordErrors(v.password, v.again),
    }),
  });
  const { busy, run, alert } = useSubmit();
  const submit = form.onSubmit(async (v) => {
    const done = await run(
      () => call('changePassword', { old_password: v.old, new_password: v.password }),
      'account.password_changed',
    );
    if (done) form.reset();
  });
  return (
    <Section title="account.change_password" testId="change-password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {alert}
          <PasswordInput
            {...limitProps(PASSWORD_MAX)}
            label={t('account.current_password')}
            autoComplete="current-password"
            {...fieldProps(form, 'old', t)}
          />
          <NewPasswordFields
            password={form.values.password}
            again={form.values.again}
            onPassword={(v) => form.setFieldValue('password', v)}
            onAgain={(v) => form.setFieldValue('again', v)}
            passwordError={fieldProps(form, 'password', t).error}
            againError={fieldProps(form, 'again', t).error}
          />
          <Group>
            <Button type="submit" loading={busy}>
              {t('account.change_password')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function FirstPasswordCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { password: '', again: '' },
    validate: (v) => newPasswordErrors(v.password, v.again),
  });
  const { busy, run, alert } = useSubmit();
  const submit = form.onSubmit(async (v) => {
    const done = await run(
      () => call('setFirstPassword', { password: v.password, confirm_password: v.again }),
      'account.password_set',
    );
    if (done) await queryClient.invalidateQueries({ queryKey: ['account'] });
  });
  return (
    <Section title="account.set_password" testId="set-password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {alert}
          <NewPasswordFields
            password={form.values.password}
            again={form.values.again}
            onPassword={(v) => form.setFieldValue('password', v)}
            onAgain={(v) => form.setFieldValue('again', v)}
            passwordError={fieldProps(form, 'password', t).error}
            againError={fieldProps(form, 'again', t).error}
          />
          <Group>
            <Button type="submit" loading={busy}>
              {t('account.set_password')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

type Flow =
  | { step: 'idle' }
  | { step: 'prove'; next: 'change' | 'regenerate' }
  | { step: 'confirm'; mode: 'register' | 'change'; secret: string; url: string }
  | { step: 'codes'; codes: string[] };

function AuthenticatorCard({
  totpEnabled,
  codesLeft,
  canEnable,
}: {
  totpEnabled: boolean;
  codesLeft: number;
  canEnable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [flow, setFlow] = useState<Flow>({ step: 'idle' });
  const [code, setCode] = useState('');
  const { busy, run, alert } = useSubmit();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['account'] });
  const go = (next: Flow) => {
    setCode('');
    setFlow(next);
  };

  async function startRegister() {
    const setup = await run(() => call('totpRegister', {}));
    if (setup) go({ step: 'confirm', mode: 'register', secret: setup.secret, url: setup.otpauth_url });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (code.length !== OTP_LENGTH) return;
    if (flow.step === 'confirm' && flow.mode === 'register') {
      const done = await run(() => call('totpRegisterVerify', { totp: code }), 'account.authenticator_enabled');
      if (done) {
        go({ step: 'codes', codes: done.recovery_codes });
        await refresh();
      }
    } else if (flow.step === 'confirm') {
      const done = await run(() => call('totpChangeVerify', { totp: code }), 'account.authenticator_changed');
      if (done) go({ step: 'idle' });
    } else if (flow.step === 'prove' && flow.next === 'change') {
      const setup = await run(() => call('totpChange', { totp: code }));
      if (setup) go({ step: 'confirm', mode: 'change', secret: setup.secret, url: setup.otpauth_url });
    } else if (flow.step === 'prove') {
      const done = await run(() => call('regenerateRecoveryCodes', { totp: code }));
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
