// Run after `vite build` (apps/web's build script): writes a Brotli (.br) and a gzip (.gz) copy
// beside every text file of the built console, at the strongest settings, once. The server
// (apps/server/src/app.ts, @fastify/static `preCompressed`) sends the copy the browser accepts
// with Content-Encoding, so no request pays for compression and no file leaves uncompressed.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// The built console, or the folder given (tests precompress a folder of their own).
const dist = process.argv[2] ?? new URL('../apps/web/dist/', import.meta.url).pathname;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Smaller files gain nothing worth a second request path. */
const MIN_BYTES = 512;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
let count = 0;
for (const path of files(dist)) {
  if (!COMPRESSIBLE.test(path) || path.includes('/.vite/')) continue;
  const content = readFileSync(path);
  if (content.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  const gzip = gzipSync(content, { level: 9 });
  writeFileSync(`${path}.br`, brotli);
  writeFileSync(`${path}.gz`, gzip);
  raw += content.length;
  br += brotli.length;
  gz += gzip.length;
  count += 1;
}
const kb = (n) => `${(n / 1024).toFixed(0)} kB`;
console.info(`precompressed ${count} files: ${kb(raw)} → brotli ${kb(br)}, gzip ${kb(gz)}`);
