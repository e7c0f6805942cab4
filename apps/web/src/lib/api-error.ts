import { ERROR_MESSAGE_KEYS, type ErrorReply } from '@latchkey/contracts/client';
import { formatMoment, isolate } from './format.ts';

type FailureClass = 'TIMEOUT_ERROR' | 'FETCH_ERROR' | 'PARSING_ERROR';

/** A failed call: the server's code and description, or a client-side failure class. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status: number,
    readonly failure?: FailureClass,
    readonly target: 'server' | 'hub' = 'server',
    readonly issues?: { path: string; message: string }[],
    /** The reply's own i18n key and values (`message_key`, `message_values`), when it has them. */
    readonly shown?: { key: string; values?: Record<string, string | number> },
  ) {
    super(description);
  }
}

/** The ApiError of an error reply from the server or the Hub. */
export function replyError(reply: Partial<ErrorReply>, status: number, target: 'server' | 'hub'): ApiError {
  const shown = reply.message_key ? { key: reply.message_key, values: reply.message_values } : undefined;
  return new ApiError(reply.code ?? 'unknown', reply.description ?? '', status, undefined, target, reply.issues, shown);
}

/**
 * A change the team's approval policy holds for another super admin (HTTP 202 `approval_required`):
 * nothing changed yet. Thrown, not returned, so no screen takes it for a success.
 */
export class ApprovalRequired extends ApiError {
  constructor(
    readonly requestId: string,
    /** When the request was made (the server's time when it says, else this browser's). */
    readonly requestedAt: string,
  ) {
    super('approval_required', 'Waiting for approval.', 202, undefined, 'server', undefined, { key: APPROVAL_WAITING });
  }
}

/** "Waiting for approval by another super admin — requested {{time}}". */
export const APPROVAL_WAITING = 'approvals.notice.waiting';

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
  if (error.shown) return error.shown.key;
  const key = ERROR_MESSAGE_KEYS[error.code];
  if (key) return key;
  if (error.code === 'invalid_input' && error.issues?.[0]) return error.issues[0].message;
  return error.description || SOMETHING_WENT_WRONG;
}

/** The values an error's message names, for `t(errorMessage(error), errorValues(error))`. */
export const errorValues = (error: unknown): Record<string, string | number> | undefined => {
  if (error instanceof ApprovalRequired) return { time: isolate(formatMoment(error.requestedAt)) };
  return error instanceof ApiError ? error.shown?.values : undefined;
};
