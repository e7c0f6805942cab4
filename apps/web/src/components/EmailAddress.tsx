import { Fragment } from 'react';

/**
 * An e-mail address that wraps only before its "@" and its dots (UI.md: long e-mails break at
 * `@` and `.`, never mid-word): a break opportunity before each, and none inside the words.
 */
export function EmailAddress({ address }: { address: string }) {
  const parts = address.split(/(?=[@.])/);
  return (
    <span style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
