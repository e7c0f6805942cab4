import { SSO_ERROR_KEYS, ssoErrorKey } from '@latchkey/contracts/client';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';

describe('SSO error page texts (spec §8)', () => {
  it('has a message for every SSO code of the spec, and each is an English text', () => {
    expect(Object.keys(SSO_ERROR_KEYS).sort()).toEqual(
      ['45002', '45004', '45005', '45013', '45031', '45032', '45037', '45038', '45044'].sort(),
    );
    const messages = en as Record<string, string>;
    for (const key of [...Object.values(SSO_ERROR_KEYS), 'sso_fail_solution', 'sso.error_code']) {
      expect(messages[key], key).toBeTruthy();
    }
  });

  it('reads an unknown code as a failed authentication', () => {
    expect(ssoErrorKey('45032')).toBe('sso_email_mismatch');
    expect(ssoErrorKey('99999')).toBe('authentication failed');
  });
});
