import { describe, expect, it } from 'vitest';
import { NewPassword } from './account.ts';
import { newPasswordProblem, PASSWORD_MIN_LENGTH } from './password-rules.ts';

describe('new password rule', () => {
  it('asks for the password, then its retype, then a match, then the length', () => {
    expect(newPasswordProblem('', '')).toEqual({ field: 'password', key: 'settingspage.enter_pwd_alert' });
    expect(newPasswordProblem('short', '')).toEqual({ field: 'again', key: 'settingspage.retype_pwd_alert' });
    expect(newPasswordProblem('short', 'different')).toEqual({ field: 'again', key: 'settingspage.pwd_no_match' });
    expect(newPasswordProblem('short', 'short')).toEqual({ field: 'password', key: 'settingspage.pwd_too_short' });
    const long = 'x'.repeat(1025);
    expect(newPasswordProblem(long, long)).toEqual({ field: 'password', key: 'settingspage.pwd_too_long' });
    expect(newPasswordProblem('a long pass phrase', 'a long pass phrase')).toBeNull();
  });

  it('agrees with the schema the server checks, at the length boundary', () => {
    for (const n of [PASSWORD_MIN_LENGTH - 1, PASSWORD_MIN_LENGTH, 1024, 1025]) {
      const pw = 'p'.repeat(n);
      expect(newPasswordProblem(pw, pw) === null).toBe(NewPassword.safeParse(pw).success);
    }
  });
});
