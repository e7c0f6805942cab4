import { SSO_METADATA_MAX_BYTES } from '@latchkey/contracts/client';

/** Why a file cannot be the identity provider's metadata, as an i18n key; or its text. */
type MetadataFile = { ok: true; xml: string } | { ok: false; error: 'sso.metadata_not_xml' | 'sso.metadata_too_large' };

const XML_TYPES = new Set(['', 'text/xml', 'application/xml', 'application/samlmetadata+xml']);

/**
 * Reads an uploaded or dropped metadata file in the browser (the server gets its text, as for a
 * pasted document, and parses it without any DTD). Refused before reading: a file that is not
 * .xml, or larger than the contract's SSO_METADATA_MAX_BYTES.
 */
export async function readMetadataFile(file: File): Promise<MetadataFile> {
  if (!/\.xml$/i.test(file.name) || !XML_TYPES.has(file.type)) return { ok: false, error: 'sso.metadata_not_xml' };
  if (file.size > SSO_METADATA_MAX_BYTES) return { ok: false, error: 'sso.metadata_too_large' };
  return { ok: true, xml: await file.text() };
}
