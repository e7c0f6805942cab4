import { describe, expect, it } from 'vitest';
import { Email } from './auth.ts';
import { emailProblem } from './messages.ts';

describe('email rule (spec §5), the same in console and server', () => {
  it.each([
    ['', 'please enter your email'],
    ['   ', 'please enter your email'],
    ['alex', 'loginpage.enter_valid_email'],
    ['alex@northwind', 'loginpage.enter_valid_email'],
    ['alex @northwind.example', 'loginpage.enter_valid_email'],
    // Address syntax a mail library would read differently, and invisible characters.
    ['"alex"@northwind.example', 'loginpage.enter_valid_email'],
    ['alex,eve@northwind.example', 'loginpage.enter_valid_email'],
    ['alex@northwind.example\u202e', 'loginpage.enter_valid_email'],
    ['alex\u200b@northwind.example', 'loginpage.enter_valid_email'],
    ["o'brien+news@north-wind.example", null],
    [' Alex@Northwind.example ', null],
  ])('%j → %s', (input, problem) => {
    expect(emailProblem(input)).toBe(problem);
    const parsed = Email.safeParse(input);
    expect(parsed.success ? null : parsed.error.issues[0]?.message).toBe(problem);
  });

  it('trims and lowercases', () => {
    expect(Email.parse(' Alex@Northwind.example ')).toBe('alex@northwind.example');
  });
});
