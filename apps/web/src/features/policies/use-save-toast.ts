import { notifications } from '@mantine/notifications';
import { ApprovalRequired, errorMessage, errorValues } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/**
 * Spec §8 Policy save: 'successfully updated', or the server's description / 'Something went wrong'.
 * A change held for approval is done with for this form (`onHeld`: it shows the policy as it still
 * is); the screen's approval notice says it waits.
 */
export function useSaveToast() {
  const { t } = useTranslation();
  return async (save: () => Promise<unknown>, onHeld?: () => void): Promise<boolean> => {
    try {
      await save();
      notifications.show({ color: 'green', message: t('successfully updated') });
      return true;
    } catch (error) {
      if (error instanceof ApprovalRequired) {
        onHeld?.();
        return true;
      }
      notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) });
      return false;
    }
  };
}
