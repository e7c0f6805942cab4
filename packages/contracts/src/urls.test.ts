import { describe, expect, it } from 'vitest';
import { hubUrlProblem } from './urls.ts';

describe('hub URLs (spec §5)', () => {
  it.each([
    ['https://hub.example.com', false, null],
    ['not a url', true, 'invalid url'],
    ['http://hub.example.com', true, 'https_required'],
    ['http://127.0.0.1:8081', true, null],
    ['http://localhost:8081', true, null],
    ['http://127.0.0.1:8081', false, 'https_required'],
    ['ftp://hub.example.com', true, 'https_required'],
  ] as const)('%s (dev %s) → %s', (url, dev, problem) => {
    expect(hubUrlProblem(url, { allowLoopbackHttp: dev })).toBe(problem);
  });
});
