import { PasswordInput } from '@mantine/core';
import { limitProps, PASSWORD_MAX } from '../lib/limits.ts';
import { useTranslation } from '../lib/use-translation.ts';

interface NewPasswordFieldsProps {
  password: string;
  again: string;
  onPassword: (value: string) => void;
  onAgain: (value: string) => void;
  /** Translated messages under each field. */
  passwordError?: string | undefined;
  againError?: string | undefined;
  autoFocus?: boolean;
}

/** A new password and its retype, with the strong-password hint (spec §5 set or reset password). */
export function NewPasswordFields({
  password,
  again,
  onPassword,
  onAgain,
  passwordError,
  againError,
  autoFocus,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordInput
        {...limitProps(PASSWORD_MAX)}
        label={t('account.new_password')}
        description={t('account.password_hint')}
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={passwordError}
      />
      <PasswordInput
        {...limitProps(PASSWORD_MAX)}
        label={t('account.retype_password')}
        autoComplete="new-password"
        value={again}
        onChange={(e) => onAgain(e.currentTarget.value)}
        error={againError}
      />
    </>
  );
}
