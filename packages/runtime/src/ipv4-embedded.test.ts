import { expect, test } from 'vitest';
import { embeddedIPv4s, ipv6Bytes } from './ipv4-embedded.ts';

/** Each layout that carries an IPv4 address, in each spelling, and the address read from it. */
test.each([
  ['::ffff:169.254.169.254', '169.254.169.254'],
  ['::FFFF:A9FE:A9FE', '169.254.169.254'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', '169.254.169.254'],
  ['::169.254.169.254', '169.254.169.254'],
  ['::a9fe:a9fe', '169.254.169.254'],
  ['::ffff:0:169.254.169.254', '169.254.169.254'],
  ['::ffff:0:a9fe:a9fe', '169.254.169.254'],
  ['0000:0000:0000:0000:ffff:0000:a9fe:a9fe', '169.254.169.254'],
  ['64:ff9b::169.254.169.254', '169.254.169.254'],
  ['64:ff9b:0:0:0:0:a9fe:a9fe', '169.254.169.254'],
  // Local-use NAT64: the IPv4 after a /96, /48 (around bits 64–71), /56 and /64 prefix.
  ['64:ff9b:1::a9fe:a9fe', '169.254.169.254'],
  ['64:ff9b:1:a9fe:a9:fe00::', '169.254.169.254'],
  ['64:ff9b:1:a9:a9:fea9:fe00:0', '169.254.169.254'],
  ['64:ff9b:1:0:a9:fea9:fe00:0', '169.254.169.254'],
  ['2002:a9fe:a9fe::1', '169.254.169.254'],
  ['2002:a9fe:a9fe:1:2:3:4:5', '169.254.169.254'],
  // Teredo: the server's IPv4 as is, the client's with every bit inverted.
  ['2001:0:a9fe:a9fe:8000:63bf:f7f7:f7f7', '169.254.169.254'],
  ['2001:0:4136:e378:8000:63bf:5601:5601', '169.254.169.254'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '192.0.2.45'],
  ['2606:4700::5efe:a9fe:a9fe', '169.254.169.254'],
  ['2606:4700::200:5efe:169.254.169.254', '169.254.169.254'],
  ['fe80::5efe:a9fe:a9fe%eth0', '169.254.169.254'],
])('%s carries %s', (address, inner) => {
  expect(embeddedIPv4s(address)).toContain(inner);
});

test.each(['::', '::1', '2606:4700::1111', '2606:4700::100:5efe:a9fe:a9fe', '2001:db8::a9fe:a9fe', 'fe80::1'])(
  '%s carries none',
  (address) => {
    expect(embeddedIPv4s(address)).toEqual([]);
  },
);

test('reads every spelling of an IPv6 address as its bytes, and nothing else', () => {
  const metadata = [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 169, 254, 169, 254];
  for (const spelling of ['::ffff:0:a9fe:a9fe', '0:0:0:0:ffff:0:169.254.169.254', '::FFFF:0:A9FE:A9FE', '0::ffff:0:a9fe:a9fe'])
    expect(ipv6Bytes(spelling)).toEqual(metadata);
  for (const bad of ['1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3', '::ffff:256.1.1.1', '::12345', 'g::1'])
    expect(ipv6Bytes(bad)).toBeNull();
});
