// A small but valid PDF invoice or receipt document, so invoice and receipt links lead to a real file.
import type {Organization} from '../../core/model.js'
import type {CustomerRecord} from '../customers/model.js'
import type {OrderRecord} from './model.js'
import {orderAmounts} from './present.js'

function money(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`
}

function escapeText(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1')
}

/** An invoice bills the order; a receipt (GET /orders/{id}/receipt) says it was paid. */
export type OrderDocument = 'invoice' | 'receipt'

function documentLines(kind: OrderDocument, org: Organization, o: OrderRecord, c: CustomerRecord | null): string[] {
  const a = orderAmounts(o)
  const address = o.billing_address
  return [
    `${org.name}`,
    kind === 'receipt' ? `Receipt ${o.invoice_number}` : `Invoice ${o.invoice_number}`,
    kind === 'receipt' ? `Paid: ${(o.paid_at ?? o.created_at).slice(0, 10)}` : `Date: ${(o.invoice_requested_at ?? o.created_at).slice(0, 10)}`,
    '',
    'Bill to:',
    o.billing_name ?? '',
    ...(address ? [address.line1, address.line2, [address.postal_code, address.city].filter(Boolean).join(' '), address.state, address.country] : []).filter(
      (x): x is string => Boolean(x),
    ),
    c?.email ?? '',
    '',
    ...o.items.map((i) => `${i.label}: ${money(i.amount, o.currency)}`),
    '',
    `Subtotal: ${money(a.subtotal_amount, o.currency)}`,
    `Discount: ${money(a.discount_amount, o.currency)}`,
    `Net: ${money(a.net_amount, o.currency)}`,
    `Tax: ${money(a.tax_amount, o.currency)}`,
    `Total: ${money(a.total_amount, o.currency)}`,
    `Order: ${o.id}`,
  ]
}

export function orderPdf(kind: OrderDocument, org: Organization, order: OrderRecord, customer: CustomerRecord | null): Buffer {
  const text = documentLines(kind, org, order, customer)
    .map((line, i) => `BT /F1 ${i === 1 ? 16 : 11} Tf 56 ${780 - i * 18} Td (${escapeText(line)}) Tj ET`)
    .join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
