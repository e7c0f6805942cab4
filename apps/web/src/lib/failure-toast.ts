import { notifications } from '@mantine/notifications';
import { ApprovalRequired, errorMessage, errorValues } from './api-error.ts';
import type { useTranslation } from './use-translation.ts';

/**
 * A failed change said in a red toast. A change held for approval is no failure: the screen's
 * approval notice says it waits (app/layout/ConsolePage.tsx), so no toast.
 */
export function toastFailure(t: ReturnType<typeof useTranslation>['t'], error: unknown): void {
  if (error instanceof ApprovalRequired) return;
  notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) });
}
