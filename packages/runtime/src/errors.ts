import { ERROR_STATUS, type ErrorCode } from '@latchkey/contracts';

/** A failure the caller should see, as the spec's `code` + `description`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | (string & {}),
    readonly description: string,
    readonly status: number = ERROR_STATUS[code as ErrorCode] ?? 400,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(description);
  }

  messageKey?: string;
  messageValues?: Record<string, string | number>;
  /** The approval request an `approval_required` answer made (sent as `request_id`). */
  requestId?: string;

  /** The i18n key (and values) the console shows; the description stays, in English, for logs and API clients. */
  shows(key: string, values?: Record<string, string | number>): this {
    this.messageKey = key;
    this.messageValues = values;
    return this;
  }
}

export const unauthorized = (description = 'Authentication required.') => new AppError('unauthorized', description, 401);
export const forbidden = (description = 'You are not allowed to do this.') => new AppError('forbidden', description, 403);
