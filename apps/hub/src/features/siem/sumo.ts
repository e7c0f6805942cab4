import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { post, type SenderContext, type SiemConfig, str } from './sender-http.ts';

const HOST = hostname();
/** Compressed on libuv's threads, not the event loop's. */
const gzip = promisify(gzipCallback);

/** Sumo Logic HTTP source: gzip-compressed NDJSON with the category, name and host headers. */
export async function sumoLogic(body: string, c: SiemConfig, ctx: SenderContext) {
  await post(ctx, str(c, 'url'), {
    headers: {
      'content-type': 'application/x-ndjson',
      'content-encoding': 'gzip',
      'x-sumo-category': 'latchkey/events',
      'x-sumo-name': 'latchkey-hub',
      'x-sumo-host': HOST,
    },
    body: await gzip(body),
  });
}
