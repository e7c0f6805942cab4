import { describe, expect, test } from 'vitest';
import { logoFileProblem, toBase64 } from './logo-file.ts';

describe('logo file checks (client side)', () => {
  test('PNG, JPEG and WebP up to 512 KB; SVG and larger files refused', () => {
    expect(logoFileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(logoFileProblem({ type: 'image/webp', size: 512 * 1024 })).toBeNull();
    expect(logoFileProblem({ type: 'image/svg+xml', size: 1000 })).toBe('branding.error.type');
    expect(logoFileProblem({ type: 'image/jpeg', size: 512 * 1024 + 1 })).toBe('branding.error.size');
    expect(logoFileProblem({ type: 'image/png', size: 0 })).toBe('branding.error.empty');
  });
  test('base64 of the bytes', async () => {
    expect(await toBase64(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]))).toBe('iVBORw==');
  });
});
