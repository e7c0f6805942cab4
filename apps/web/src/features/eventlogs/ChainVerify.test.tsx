import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { setupI18n } from '../../lib/i18n.ts';
import { theme } from '../../lib/theme.ts';
import type { ChainVerification } from './api.ts';
import { VerifyChainButton, VerifyChainResult } from './ChainVerify.tsx';

/** The screen's two parts around a mutation that answers as the Hub's verify did. */
function Harness({ answer }: { answer: ChainVerification }) {
  const verify = useMutation({ mutationFn: async () => answer });
  return (
    <>
      <VerifyChainButton verify={verify} />
      <VerifyChainResult verify={verify} />
    </>
  );
}
const show = async (answer: ChainVerification) => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider theme={theme}>
        <Harness answer={answer} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByTestId('verify-button'));
  return screen.findByTestId('verify-result');
};
const answer = (o: Partial<ChainVerification>): ChainVerification => ({
  ok: true,
  checked: 0,
  first_seq: 1,
  last_seq: 1,
  head_hash: 'a'.repeat(64),
  problem: null,
  problems: [],
  problem_count: 0,
  ...o,
});

beforeAll(async () => {
  await setupI18n();
});
afterEach(cleanup);

describe('verifying the chain from the event log', () => {
  test('a chain that holds says how many events were checked', async () => {
    const result = await show(answer({ checked: 1234 }));
    expect(result.textContent).toContain('The chain holds: 1,234 events checked');
  });

  test('a broken chain lists every problem, in words, and counts those not listed', async () => {
    const problems = [
      { seq: 5, kind: 'gap' as const },
      { seq: 10, kind: 'hash' as const },
      { seq: 20, kind: 'link' as const },
    ];
    const result = await show(answer({ ok: false, checked: 5000, problem: problems[0] ?? null, problems, problem_count: 1003 }));
    expect(result.textContent).toContain('The chain is broken: 1,003 problems in 5,000 events checked');
    const items = within(result).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Event 5 was removed, with any missing right after it.',
      'Event 10 was changed after it was recorded.',
      'Event 20 does not follow the event before it: it was inserted or replaced.',
    ]);
    expect(result.textContent).toContain('…and 1,000 more, not listed.');
  });
});
