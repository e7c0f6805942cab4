/**
 * The IPv4 addresses an IPv6 address carries, for the outbound guard: a packet to such an address
 * may be translated or tunnelled to the IPv4 one (the cloud's metadata service, a private host), so
 * the guard classes what is inside as well as the wrapper.
 */

/** An IPv6 address as its 16 bytes (handles `::`, a trailing dotted IPv4 and a zone), or null. */
export function ipv6Bytes(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${text.slice(0, -dotted[0].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const words = (s: string | undefined) =>
    s ? s.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? Number.parseInt(w, 16) : -1)) : [];
  const left = words(halves[0]);
  const right = words(halves[1]);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...left, ...Array<number>(missing).fill(0), ...right];
  if (all.some((w) => w < 0)) return null;
  return all.flatMap((w) => [w >> 8, w & 255]);
}

const v4 = (bytes: number[]) => bytes.join('.');
const zero = (bytes: number[]) => bytes.every((b) => b === 0);

/**
 * Every IPv4 address `address` embeds, by the layouts that carry one:
 * - IPv4-mapped `::ffff:a.b.c.d` and IPv4-compatible `::a.b.c.d` (deprecated; `::` and `::1` are not);
 * - SIIT's IPv4-translated `::ffff:0:a.b.c.d` (RFC 2765, used by RFC 6145/7915 translators);
 * - NAT64's well-known prefix `64:ff9b::/96` (RFC 6052) and the local-use `64:ff9b:1::/48`
 *   (RFC 8215), where the IPv4 sits after a /48, /56, /64 or /96 prefix (RFC 6052 §2.2, skipping
 *   bits 64–71): the address does not say which, so every place is read;
 * - 6to4 `2002:AABB:CCDD::/48` (RFC 3056);
 * - Teredo `2001:0::/32` (RFC 4380): the server's IPv4 in bits 32–63, the client's in bits 96–127
 *   with every bit inverted;
 * - ISATAP (RFC 5214): an interface identifier `0000:5efe:a.b.c.d` or `0200:5efe:a.b.c.d` under
 *   any prefix.
 */
export function embeddedIPv4s(address: string): string[] {
  const b = ipv6Bytes(address);
  if (!b) return [];
  const found: string[] = [];
  const last4 = b.slice(12, 16);
  if (zero(b.slice(0, 10)) && b[10] === 0xff && b[11] === 0xff) found.push(v4(last4));
  const unspecifiedOrLoopback = zero(b.slice(0, 15)) && (b[15] ?? 0) <= 1;
  if (zero(b.slice(0, 12)) && !unspecifiedOrLoopback) found.push(v4(last4));
  if (zero(b.slice(0, 8)) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) found.push(v4(last4));
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(b.slice(4, 12))) found.push(v4(last4));
    if (b[4] === 0 && b[5] === 1) {
      // Bits 64–71 are zero in the /48, /56 and /64 layouts; a nonzero one rules them out.
      if (b[8] === 0) {
        found.push(v4([...b.slice(6, 8), ...b.slice(9, 11)]));
        found.push(v4([b[7] as number, ...b.slice(9, 12)]));
        found.push(v4(b.slice(9, 13)));
      }
      found.push(v4(last4));
    }
  }
  if (b[0] === 0x20 && b[1] === 0x02) found.push(v4(b.slice(2, 6)));
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) {
    found.push(v4(b.slice(4, 8)));
    found.push(v4(last4.map((x) => x ^ 0xff)));
  }
  if ((b[8] === 0x00 || b[8] === 0x02) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) found.push(v4(last4));
  return [...new Set(found)];
}
