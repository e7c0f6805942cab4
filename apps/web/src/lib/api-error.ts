import { ERROR_MESSAGE_KEYS } from '@latchkey/contracts/client';

export type FailureClass = 'TIMEOUT_ERROR' | 'FETCH_ERROR' | 'PARSING_ERROR';

/** A failed call: the server's code and description, or a client-side failure class. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status: number,
    readonly failure?: FailureClass,
    readonly target: 'server' | 'hub' = 'server',
    readonly issues?: { path: string; message: string }[],
  ) {
    super(description);
  }
}

export const SOMETHING_WENT_WRONG = 'Something went wrong';

/**
 * What the console says about a failure (spec §8), as an i18n key, or the server's own
 * description where the spec says to show it.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return SOMETHING_WENT_WRONG;
  if (error.failure === 'FETCH_ERROR' || error.failure === 'TIMEOUT_ERROR') {
    return error.target === 'hub' ? 'hub_connection_failed' : 'server_connection_failed';
  }
  if (error.status === 429) return 'too_many_requests_msg';
  if (error.status >= 500 || error.failure) return SOMETHING_WENT_WRONG;
  const key = ERROR_MESSAGE_KEYS[error.code];
  if (key) return key;
  if (error.code === 'invalid_input' && error.issues?.[0]) return error.issues[0].message;
  return error.description || SOMETHING_WENT_WRONG;
}
