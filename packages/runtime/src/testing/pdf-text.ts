/**
 * The text of a PDF the server made (pdfkit, uncompressed): its TJ strings, decoded as WinAnsi.
 * Enough to check an invoice says what it should; not a general PDF reader.
 */
export function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  return [...body.matchAll(/\[([^\]]*)\]\s*TJ/g)]
    .map((m) =>
      [...(m[1] ?? '').matchAll(/<([0-9a-f]*)>/gi)]
        .map((hex) =>
          Buffer.from(hex[1] ?? '', 'hex')
            .toString('latin1')
            .replace(/\x80/g, '€'),
        )
        .join(''),
    )
    .join('\n');
}
