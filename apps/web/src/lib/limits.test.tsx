import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { limitProps, trimPasted } from './limits.ts';

function Field({ max, restrict }: { max: number; restrict?: (s: string) => string }) {
  const [value, setValue] = useState('ab');
  return (
    <>
      <input aria-label="field" value={value} onChange={(e) => setValue(e.currentTarget.value)} {...limitProps(max, restrict)} />
      <output data-testid="value">{value}</output>
    </>
  );
}

const paste = (text: string) => fireEvent.paste(screen.getByLabelText('field'), { clipboardData: { getData: () => text } });

afterEach(cleanup);

describe('limitProps (spec §5: a paste is cut to max length, the restriction applies to pasted text)', () => {
  test('the field carries its maximum length', () => {
    render(<Field max={10} />);
    expect(screen.getByLabelText('field').getAttribute('maxlength')).toBe('10');
  });

  test('pasted text is restricted first, then cut to what still fits; the form sees the value', () => {
    render(<Field max={8} restrict={trimPasted} />);
    const input = screen.getByLabelText('field') as HTMLInputElement;
    input.setSelectionRange(2, 2);
    paste('   cdefghijk  ');
    // "ab" + the trimmed paste, cut at 8 characters.
    expect(screen.getByTestId('value').textContent).toBe('abcdefgh');
  });

  test('a paste over a selection replaces it and uses the room it frees', () => {
    render(<Field max={4} restrict={trimPasted} />);
    const input = screen.getByLabelText('field') as HTMLInputElement;
    input.setSelectionRange(0, 2);
    paste(' wxyz ');
    expect(screen.getByTestId('value').textContent).toBe('wxyz');
  });
});
