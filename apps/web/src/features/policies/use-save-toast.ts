import { notifications } from '@mantine/notifications';
import { ApprovalRequired, errorMessage, errorValues } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Spec §8 Policy save: 'successfully updated', or the server's description / 'Something went wrong'. */
export function useSaveToast() {
  const { t } = useTranslation();
  return async (save: () => Promise<unknown>): Promise<boolean> => {
    try {
      await save();
      notifications.show({ color: 'green', message: t('successfully updated') });
      return true;
    } catch (error) {
      // A held change is said by the screen's approval notice (app/layout/ConsolePage.tsx), not as a failure.
      if (error instanceof ApprovalRequired) return false;
      notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) });
      return false;
    }
  };
}
