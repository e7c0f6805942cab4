import { SSO_METADATA_MAX_BYTES } from '@latchkey/contracts/client';
import { expect, test } from 'vitest';
import { readMetadataFile } from './metadata-file.ts';

const xml = '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example"/>';

test('an .xml file is read as text, whatever XML type the browser gives it', async () => {
  for (const type of ['text/xml', 'application/xml', 'application/samlmetadata+xml', ''])
    expect(await readMetadataFile(new File([xml], 'FederationMetadata.xml', { type })), type).toEqual({ ok: true, xml });
});

test('not .xml, or another type, is refused before reading', async () => {
  expect(await readMetadataFile(new File([xml], 'metadata.txt', { type: 'text/plain' }))).toEqual({
    ok: false,
    error: 'sso.metadata_not_xml',
  });
  expect(await readMetadataFile(new File([xml], 'metadata.xml', { type: 'text/html' }))).toEqual({
    ok: false,
    error: 'sso.metadata_not_xml',
  });
});

test('a file over the contract limit is refused; one at the limit is read', async () => {
  const at = `<x>${'a'.repeat(SSO_METADATA_MAX_BYTES - 7)}</x>`;
  expect((await readMetadataFile(new File([at], 'big.xml', { type: 'text/xml' }))).ok).toBe(true);
  expect(await readMetadataFile(new File([`${at} `], 'big.xml', { type: 'text/xml' }))).toEqual({
    ok: false,
    error: 'sso.metadata_too_large',
  });
});
