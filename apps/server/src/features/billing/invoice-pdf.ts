import { createRequire } from 'node:module';
import type { InvoiceRow } from './invoices.repository.ts';

// pdfkit's Node build (its ESM entry is the browser build, without the standard fonts).
const PDFDocument = createRequire(import.meta.url)('pdfkit') as typeof import('pdfkit');

export const invoiceNumber = (n: string | number): string => `LK-${String(n).padStart(6, '0')}`;

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    cents / 100,
  );

/** The invoice as a PDF: number, dates, the team's billing details, the lines and the total. */
export function renderInvoicePdf(inv: InvoiceRow, seller: { name: string }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: false,
    info: { Title: `Invoice ${invoiceNumber(inv.number)}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const issued = new Date(inv.issued_at).toISOString().slice(0, 10);
  doc.font('Helvetica-Bold').fontSize(20).text(seller.name);
  doc
    .moveDown(0.5)
    .fontSize(16)
    .text(`Invoice ${invoiceNumber(inv.number)}`);
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  doc.text(`Issued: ${issued}`);
  doc.text(`Due: ${inv.due_date}`);
  doc.text(
    `Status: ${inv.state === 'paid' ? `Paid ${inv.paid_at ? new Date(inv.paid_at).toISOString().slice(0, 10) : ''}` : inv.state === 'void' ? 'Void' : 'Open'}`,
  );
  doc.moveDown();
  doc.font('Helvetica-Bold').text('Bill to');
  doc.font('Helvetica').text(inv.bill_to.team_name);
  doc.text(`Team: ${inv.bill_to.team_slug}`);
  doc.text(inv.bill_to.billing_email);
  doc.moveDown();
  const top = doc.y;
  const columns = [56, 330, 390, 470];
  doc.font('Helvetica-Bold');
  for (const [i, heading] of ['Description', 'Qty', 'Unit price', 'Amount'].entries())
    doc.text(heading, columns[i], top, { width: i === 0 ? 270 : 75 });
  doc.font('Helvetica');
  let y = top + 18;
  for (const line of inv.lines) {
    doc.text(line.description, columns[0], y, { width: 270 });
    const height = doc.y - y;
    doc.text(String(line.quantity), columns[1], y, { width: 55 });
    doc.text(money(line.unit_cents, inv.currency), columns[2], y, { width: 75 });
    doc.text(money(line.amount_cents, inv.currency), columns[3], y, { width: 75 });
    y += Math.max(height, 14) + 6;
  }
  doc.font('Helvetica-Bold').text(`Total: ${money(inv.total_cents, inv.currency)}`, columns[2], y + 10, { width: 160 });
  doc.end();
  return done;
}
