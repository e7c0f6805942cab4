import { Alert } from '@mantine/core';
import { ApprovalRequired, errorMessage, errorValues } from '../lib/api-error.ts';
import { useTranslation } from '../lib/use-translation.ts';

/** Why a dialog's action failed, inside the dialog, so the admin can correct it and retry in place. */
export function ModalError({
  error,
  message = errorMessage,
}: {
  /** A failure, or the i18n key of a check the dialog made itself. */
  error: unknown;
  /** The failure's i18n key, for calls that describe their failures their own way. */
  message?: (error: unknown) => string;
}) {
  const { t } = useTranslation();
  if (!error) return null;
  // Not a failure: the change waits for another super admin, and nothing changed meanwhile.
  if (error instanceof ApprovalRequired)
    return (
      <Alert color="blue" data-testid="approval-waiting">
        {t(errorMessage(error), errorValues(error))}
      </Alert>
    );
  return (
    <Alert color="red" data-testid="modal-error">
      {typeof error === 'string' ? t(error) : t(message(error), errorValues(error))}
    </Alert>
  );
}
