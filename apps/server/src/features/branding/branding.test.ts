import { crc32, deflateSync } from 'node:zlib';
import { TeamLogo } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { inspectImage } from './image-check.ts';

/** A real, decodable PNG of one colour. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x4c)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's leading segments (APP0, then a baseline frame header) with the given size. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  for (const who of ['superAdmin', 'admin', 'integrator'] as const)
    tokens.set(who, (await h.signIn(DEMO_ADMINS[who])).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());
const token = (who: string) => tokens.get(who) as string;
const upload = (path: string, content_type: string, bytes: Buffer, who = 'superAdmin') =>
  h.post(path, { content_type, data: bytes.toString('base64') }, token(who));

describe('image check (unit)', () => {
  test('reads the real type and size from the bytes', () => {
    expect(inspectImage(png(40, 30))).toEqual({ type: 'image/png', width: 40, height: 30 });
    expect(inspectImage(jpegHeader(640, 480))).toEqual({ type: 'image/jpeg', width: 640, height: 480 });
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'ascii');
    vp8x.write('WEBPVP8X', 8, 'ascii');
    vp8x.writeUIntLE(99, 24, 3);
    vp8x.writeUIntLE(49, 27, 3);
    expect(inspectImage(vp8x)).toEqual({ type: 'image/webp', width: 100, height: 50 });
    expect(inspectImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(inspectImage(Buffer.from([0xff, 0xd8, 0x00]))).toBeNull();
  });
});

describe('branding', () => {
  test('upload, read, serve with its type and long caching, replace, remove', async () => {
    expect((await h.post('/organization/account/branding/', {}, token('admin'))).body).toEqual({ logo: null });
    const first = await upload('/organization/account/logo/', 'image/png', png(64, 32));
    expect(first.status, first.text).toBe(200);
    const logo = TeamLogo.strict().parse((first.body as { logo: unknown }).logo);
    expect(logo).toMatchObject({ content_type: 'image/png', width: 64, height: 32, size: png(64, 32).length });
    // Every admin reads it (the top bar), including scopes that cannot change it.
    const seen = await h.post('/organization/account/branding/', {}, token('integrator'));
    expect(seen.body).toEqual({ logo });
    const file = await fetch(h.url + logo.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(png(64, 32))).toBe(true);

    const next = await upload('/organization/account/logo/update/', 'image/jpeg', jpegHeader(300, 100));
    expect(next.status, next.text).toBe(200);
    const replaced = TeamLogo.parse((next.body as { logo: unknown }).logo);
    expect(replaced).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 100 });
    expect(replaced.url).not.toBe(logo.url);
    // The old address is gone, never showing the new image under a cached URL.
    expect((await fetch(h.url + logo.url)).status).toBe(404);
    expect((await fetch(h.url + replaced.url)).headers.get('content-type')).toBe('image/jpeg');

    const removed = await h.post('/organization/account/logo/remove/', {}, token('superAdmin'));
    expect(removed.body).toEqual({ code: 'updated' });
    expect((await fetch(h.url + replaced.url)).status).toBe(404);
    expect((await h.post('/organization/account/branding/', {}, token('superAdmin'))).body).toEqual({ logo: null });
    const again = await h.post('/organization/account/logo/remove/', {}, token('superAdmin'));
    expect(again.status).toBe(404);
    const update = await upload('/organization/account/logo/update/', 'image/png', png(20, 20));
    expect(update.status).toBe(404);
    const [events] = await h.db.query<{ n: number }>(
      `select count(*)::int as n from member_events where action in ('logo_updated', 'logo_removed')`,
    );
    expect(events?.n).toBe(3);
  });

  test('type and size are checked on the bytes, not trusted', async () => {
    const cases: [string, Buffer, Record<string, unknown>][] = [
      ['image/svg+xml', Buffer.from('<svg/>'), { code: 'invalid_input' }],
      [
        'image/png',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        { code: 'invalid_image', message_key: 'errors.image_type' },
      ],
      [
        'image/jpeg',
        png(32, 32),
        {
          code: 'invalid_image',
          message_key: 'errors.image_type_mismatch',
          message_values: { actual: 'image/png', declared: 'image/jpeg' },
        },
      ],
      [
        'image/png',
        png(8, 8),
        {
          code: 'invalid_image',
          message_key: 'errors.image_dimensions',
          message_values: { min: 16, max: 4096, width: 8, height: 8 },
        },
      ],
      ['image/png', Buffer.concat([png(32, 32), Buffer.alloc(600 * 1024)]), { code: 'invalid_input' }],
      [
        'image/png',
        Buffer.concat([png(32, 32), Buffer.alloc(512 * 1024 + 1 - png(32, 32).length)]),
        { code: 'invalid_image', message_key: 'errors.image_too_big', message_values: { kb: 512 } },
      ],
    ];
    for (const [type, bytes, reply] of cases) {
      const res = await upload('/organization/account/logo/', type, bytes);
      expect(res.status, `${type} ${bytes.length}`).toBe(400);
      expect(res.body).toMatchObject(reply);
    }
    const notBase64 = await h.post(
      '/organization/account/logo/',
      { content_type: 'image/png', data: '@@@' },
      token('superAdmin'),
    );
    expect(notBase64.body).toMatchObject({ code: 'invalid_input' });
    expect((await h.post('/organization/account/branding/', {}, token('superAdmin'))).body).toEqual({ logo: null });
  });

  test('only the super admin of an organisation changes the logo', async () => {
    for (const who of ['admin', 'integrator', 'family']) {
      for (const path of ['/organization/account/logo/', '/organization/account/logo/update/']) {
        const res = await upload(path, 'image/png', png(32, 32), who);
        expect(res.status, `${who} ${path}`).toBe(403);
      }
      expect((await h.post('/organization/account/logo/remove/', {}, token(who))).status).toBe(403);
    }
    expect((await h.post('/organization/account/branding/', {})).status).toBe(401);
    expect((await fetch(`${h.url}/organization/account/logo/file/not-a-uuid`)).status).toBe(404);
  });
});
