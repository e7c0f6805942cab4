import { ONBOARDING_ERROR_KEYS, type OnboardingErrorCode } from '@latchkey/contracts/client';
import { ApiError, SOMETHING_WENT_WRONG } from '../../../lib/api-error.ts';

export interface Problem {
  key: string;
  /** Popups blocked: the steps to allow them. */
  steps?: boolean;
}

export const problemOf = (code: string): Problem => ({
  key: ONBOARDING_ERROR_KEYS[code as OnboardingErrorCode] ?? SOMETHING_WENT_WRONG,
  steps: code === 'popup_blocked' || code === 'browser_popups_blocked',
});
export const codeOf = (error: unknown): string => (error instanceof ApiError ? error.code : 'process_failed');
