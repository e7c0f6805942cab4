import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage, errorValues, replyError } from './api-error.ts';

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

describe('a reply that names its own message', () => {
  const reply = {
    code: 'group_already_exists',
    description: 'A group named "Ops" already exists in this team.',
    message_key: 'errors.group_already_exists',
    message_values: { name: 'Ops' },
  };

  it('shows its key with its values, not the English description', () => {
    const error = replyError(reply, 409, 'server');
    expect(errorMessage(error)).toBe('errors.group_already_exists');
    expect(errorValues(error)).toEqual({ name: 'Ops' });
  });

  it('is still a plain failure when the server is down', () => {
    expect(errorMessage(replyError(reply, 503, 'server'))).toBe('Something went wrong');
  });

  it('keeps the code key for replies without one', () => {
    const error = replyError({ code: 'password_invalid', description: 'nope' }, 400, 'server');
    expect(errorMessage(error)).toBe('invalid password');
    expect(errorValues(error)).toBeUndefined();
  });
});
