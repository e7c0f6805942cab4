import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from './api-error.ts';

describe('error messages (spec §8)', () => {
  it.each([
    [new ApiError('network', '', 0, 'FETCH_ERROR'), 'server_connection_failed'],
    [new ApiError('network', '', 0, 'TIMEOUT_ERROR', 'hub'), 'hub_connection_failed'],
    [new ApiError('too_many_requests_msg', 'x', 429), 'too_many_requests_msg'],
    [new ApiError('internal_error', 'boom', 500), 'Something went wrong'],
    [new ApiError('parsing', '', 200, 'PARSING_ERROR'), 'Something went wrong'],
    [new ApiError('password_invalid', 'nope', 400), 'invalid password'],
    [new ApiError('otp_invalid', 'nope', 400), 'invalid or expired code entered'],
    [new ApiError('email_notregistered', 'nope', 404), 'email not registered'],
    [
      new ApiError('invalid_input', 'x', 400, undefined, 'server', [{ path: 'email', message: 'loginpage.enter_valid_email' }]),
      'loginpage.enter_valid_email',
    ],
    [new ApiError('whatever', 'The server says why.', 400), 'The server says why.'],
    [new Error('not an api error'), 'Something went wrong'],
  ])('%#: %s', (error, key) => {
    expect(errorMessage(error)).toBe(key);
  });
});
