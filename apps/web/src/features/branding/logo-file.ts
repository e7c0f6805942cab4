import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType } from '@latchkey/contracts/client';

/** The message key of what is wrong with a chosen file before it is sent, or null (the server checks again). */
export function logoFileProblem(file: { type: string; size: number }): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'branding.error.type';
  if (file.size > LOGO_MAX_BYTES) return 'branding.error.size';
  if (file.size === 0) return 'branding.error.empty';
  return null;
}

/** The file's bytes as base64, the way the logo calls take them. */
export async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export const isLogoType = (type: string): type is LogoType => (LOGO_TYPES as readonly string[]).includes(type);
