import { Button, Group, PasswordInput, Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { fieldProps } from '../../../lib/form.ts';
import { limitProps, PASSWORD_MAX } from '../../../lib/limits.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { Section, useSubmit } from '../account-ui.tsx';
import { updateSignInMethod, useAccountRefresh } from '../api.ts';

export function SignInMethodCard({
  current,
  totpEnabled,
  hasPassword,
}: {
  current: 'password' | 'otp';
  totpEnabled: boolean;
  hasPassword: boolean;
}) {
  const { t } = useTranslation();
  const refreshAccount = useAccountRefresh();
  const form = useForm({
    initialValues: { auth_type: current, password: '' },
    validate: { password: (value) => (value ? null : 'please enter your password') },
  });
  const { busy, run, alert } = useSubmit();
  const submit = form.onSubmit(async (values) => {
    const done = await run(() => updateSignInMethod(values), 'account.method_saved');
    if (done) {
      form.setFieldValue('password', '');
      await refreshAccount();
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
