import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

const root = resolve(import.meta.dirname, '../../../..');

/** A raw GET (fetch would undo the encoding): status, headers and the bytes as sent. */
function rawGet(
  url: string,
  acceptEncoding?: string,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = request(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the built console is served precompressed and cached by kind', () => {
  let h: Harness;
  let dist: string;
  const script = `console.log(${JSON.stringify('latchkey '.repeat(400))});`;
  const html = `<!doctype html><html><head><title>Latchkey</title></head><body>${'<div></div>'.repeat(100)}</body></html>`;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'latchkey-web-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), html);
    writeFileSync(join(dist, 'assets/index-AbC123.js'), script);
    // The build's own step, on this folder.
    execFileSync(process.execPath, [join(root, 'scripts/precompress-web.mjs'), dist], { stdio: 'ignore' });
    h = await startHarness({ seed: false, env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  test('Brotli when the browser takes it, gzip otherwise, the plain file to a client that takes neither', async () => {
    const brotli = await rawGet(`${h.url}/assets/index-AbC123.js`, 'gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
    expect(brotli.body.length).toBeLessThan(script.length / 10);

    const gzip = await rawGet(`${h.url}/assets/index-AbC123.js`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    const plain = await rawGet(`${h.url}/assets/index-AbC123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  test('hashed assets are cached for a year and immutable; index.html is revalidated every time', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const asset = await rawGet(`${h.url}/assets/index-AbC123.js`, encoding);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const index = await rawGet(`${h.url}/`, encoding);
      expect(index.status).toBe(200);
      expect(index.headers['cache-control']).toBe('no-cache');
      expect(index.headers['content-type']).toMatch(/text\/html/);
    }
    const index = await rawGet(`${h.url}/`, 'br');
    expect(index.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(index.body).toString()).toBe(html);
  });

  test('API replies stay uncacheable', async () => {
    const reply = await rawGet(`${h.url}/healthz`, 'br');
    expect(reply.headers['cache-control']).toBe('no-store');
  });
});
