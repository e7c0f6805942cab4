import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NewPasswordFields } from '../../../components/NewPasswordFields.tsx';
import { fieldProps, newPasswordErrors, newPasswordFieldProps } from '../../../lib/form.ts';
import { limitProps, PASSWORD_MAX } from '../../../lib/limits.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { Section, useSubmit } from '../account-ui.tsx';
import { changePassword, setFirstPassword, useAccountRefresh } from '../api.ts';

export function ChangePasswordCard() {
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
    const done = await run(() => changePassword(v.old, v.password), 'account.password_changed');
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
          <NewPasswordFields {...newPasswordFieldProps(form, t)} />
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

export function FirstPasswordCard() {
  const { t } = useTranslation();
  const refreshAccount = useAccountRefresh();
  const form = useForm({
    initialValues: { password: '', again: '' },
    validate: (v) => newPasswordErrors(v.password, v.again),
  });
  const { busy, run, alert } = useSubmit();
  const submit = form.onSubmit(async (v) => {
    const done = await run(() => setFirstPassword(v.password, v.again), 'account.password_set');
    if (done) await refreshAccount();
  });
  return (
    <Section title="account.set_password" testId="set-password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {alert}
          <NewPasswordFields {...newPasswordFieldProps(form, t)} />
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
