import { expect, test } from 'vitest';
import { createPump } from './pump.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A pass that waits until released, counting how often it started. */
function gatedPass() {
  let release: () => void = () => undefined;
  const state = {
    started: 0,
    pass: async () => {
      state.started += 1;
      await new Promise<void>((r) => {
        release = r;
      });
    },
    release: () => release(),
  };
  return state;
}

const settle = () => new Promise((r) => setTimeout(r, 10));

test('a kick while a pass runs runs one more pass after it ("again"), however many kicks came', async () => {
  const p = gatedPass();
  const pump = createPump(p.pass, { intervalMs: 60_000, log: quiet, failed: 'failed', whilePumping: 'again' });
  pump.kick();
  pump.kick();
  pump.kick();
  expect(p.started).toBe(1);
  p.release();
  await settle();
  expect(p.started).toBe(2);
  p.release();
  await settle();
  expect(p.started).toBe(2);
  await pump.stop();
});

test('a kick while a pass runs only joins it ("join")', async () => {
  const p = gatedPass();
  const pump = createPump(p.pass, { intervalMs: 60_000, log: quiet, failed: 'failed', whilePumping: 'join' });
  pump.kick();
  pump.kick();
  p.release();
  await settle();
  expect(p.started).toBe(1);
  pump.kick();
  expect(p.started).toBe(2);
  p.release();
  await pump.stop();
});

test('a failing pass is logged and the timer goes on; stop waits for the pass under way', async () => {
  const warned: string[] = [];
  let passes = 0;
  const pump = createPump(
    async () => {
      passes += 1;
      throw new Error('down');
    },
    { intervalMs: 5, log: { ...quiet, warn: (_o, msg) => warned.push(msg) }, failed: 'the pump failed', whilePumping: 'join' },
  );
  pump.start();
  await new Promise((r) => setTimeout(r, 50));
  await pump.stop();
  const after = passes;
  expect(after).toBeGreaterThanOrEqual(2);
  expect(warned).toContain('the pump failed');
  await new Promise((r) => setTimeout(r, 30));
  expect(passes).toBe(after);
});
