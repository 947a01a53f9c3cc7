// Columns of discounts, payments and disputes.
import {child, column, moneyColumn, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {formatMoney} from '../../cli/output/format.js'

/** `25%` or `$5.00` (every currency of a fixed discount). */
export function discountValue(row: Row): string {
  if (row.type === 'percentage' && typeof row.basis_points === 'number') return `${row.basis_points / 100}%`
  const amounts = child(row.amounts) ?? {}
  return Object.entries(amounts).map(([currency, amount]) => formatMoney(Number(amount), currency)).join(', ')
}

/** `once`, `forever`, `3 months`. */
export const discountDuration = (row: Row): string =>
  row.duration === 'repeating' ? `${String(row.duration_in_months)} month${row.duration_in_months === 1 ? '' : 's'}` : String(row.duration ?? '')

const redemptions = (row: Row) => (row.max_redemptions == null ? String(row.redemptions_count ?? 0) : `${String(row.redemptions_count ?? 0)}/${String(row.max_redemptions)}`)

export const discountColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('name', 'Name', 'text'),
    column('code', 'Code', 'text'),
    column('value', 'Off', 'text', discountValue),
    column('duration', 'Duration', 'text', discountDuration),
    column('redemptions', 'Redeemed', 'text', redemptions),
    column('starts_at', 'Starts', 'date'),
    column('ends_at', 'Ends', 'date'),
    column('products', 'Products', 'text', (row) => (Array.isArray(row.products) ? row.products.map((p) => child(p)?.name ?? '').join(', ') : '')),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'name', 'code', 'value', 'duration', 'redemptions', 'ends_at'],
  fields: [
    'id', 'created_at', 'modified_at', 'metadata', 'name', 'code', 'type', 'duration', 'duration_in_months', 'basis_points', 'amounts',
    'starts_at', 'ends_at', 'max_redemptions', 'redemptions_count', 'organization_id', 'products',
  ],
}


export const paymentColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('created_at', 'Created', 'date'),
    column('status', 'Status', 'status'),
    moneyColumn('amount', 'Amount'),
    column('method', 'Method', 'text', (row) => {
      const card = child(row.method_metadata)
      return card?.last4 ? `${String(row.method)} ${String(card.brand ?? '')} ****${String(card.last4)}` : String(row.method ?? '')
    }),
    column('trigger', 'Trigger', 'text'),
    column('order_id', 'Order', 'id'),
    column('checkout_id', 'Checkout', 'id'),
    column('decline_reason', 'Declined', 'text'),
  ],
  defaults: ['id', 'created_at', 'status', 'amount', 'method', 'order_id'],
  fields: [
    'id', 'created_at', 'modified_at', 'processor', 'status', 'amount', 'currency', 'method', 'trigger', 'decline_reason', 'decline_message',
    'organization_id', 'checkout_id', 'order_id', 'processor_metadata', 'method_metadata',
  ],
}

export const disputeColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('created_at', 'Opened', 'date'),
    column('status', 'Status', 'status'),
    moneyColumn('amount', 'Amount'),
    moneyColumn('tax_amount', 'Tax'),
    column('reason', 'Reason', 'text'),
    column('evidence_due_by', 'Evidence due', 'date'),
    column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? ''),
    column('order_id', 'Order', 'id'),
    column('payment_id', 'Payment', 'id'),
  ],
  defaults: ['id', 'created_at', 'status', 'amount', 'reason', 'evidence_due_by', 'customer', 'order_id'],
  fields: [
    'id', 'created_at', 'modified_at', 'status', 'resolved', 'closed', 'amount', 'tax_amount', 'currency', 'reason', 'evidence_due_by',
    'past_due', 'order_id', 'payment_id', 'customer', 'case_id',
  ],
}


export const webhookDeliveryColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('created_at', 'Sent', 'date'),
    column('succeeded', 'Succeeded', 'bool'),
    column('http_code', 'HTTP', 'text'),
    column('event_type', 'Event', 'text', (row) => child(row.webhook_event)?.type ?? ''),
    column('event_id', 'Event ID', 'id', (row) => child(row.webhook_event)?.id ?? ''),
    column('webhook_endpoint_id', 'Endpoint', 'id'),
    column('attempt', 'Attempt', 'text'),
    column('response', 'Response', 'text'),
  ],
  defaults: ['id', 'created_at', 'succeeded', 'http_code', 'event_type', 'event_id', 'webhook_endpoint_id'],
  fields: ['id', 'created_at', 'modified_at', 'succeeded', 'http_code', 'response', 'webhook_endpoint_id', 'attempt', 'webhook_event'],
}

export const paymentMethodColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('type', 'Type', 'text'),
    column('card', 'Card', 'text', (row) => {
      const m = child(row.method_metadata)
      return m?.last4 ? `${String(m.brand ?? '')} ****${String(m.last4)} ${String(m.exp_month ?? '')}/${String(m.exp_year ?? '')}` : ''
    }),
    column('customer_id', 'Customer', 'id'),
    column('created_at', 'Added', 'date'),
  ],
  defaults: ['id', 'type', 'card', 'created_at'],
  fields: ['id', 'created_at', 'modified_at', 'processor', 'customer_id', 'type', 'is_default', 'method_metadata'],
}

export const customFieldColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('slug', 'Slug', 'text'),
    column('name', 'Name', 'text'),
    column('type', 'Type', 'text'),
    column('label', 'Label', 'text', (row) => child(row.properties)?.form_label ?? ''),
    column('options', 'Options', 'text', (row) => {
      const options = child(row.properties)?.options
      return Array.isArray(options) ? options.map((o) => child(o)?.label ?? '').join(', ') : ''
    }),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'slug', 'name', 'type', 'label', 'options'],
  fields: ['id', 'created_at', 'modified_at', 'metadata', 'type', 'slug', 'name', 'organization_id', 'properties'],
}

export const fileColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('name', 'Name', 'text'),
    column('size_readable', 'Size', 'text'),
    column('mime_type', 'Type', 'text'),
    column('service', 'For', 'text'),
    column('version', 'Version', 'text'),
    column('is_uploaded', 'Uploaded', 'bool'),
    column('checksum_sha256_hex', 'SHA-256', 'text'),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'name', 'size_readable', 'mime_type', 'service', 'version', 'created_at'],
  fields: [
    'id', 'organization_id', 'name', 'path', 'mime_type', 'size', 'storage_version', 'checksum_etag', 'checksum_sha256_base64', 'checksum_sha256_hex',
    'last_modified_at', 'version', 'service', 'is_uploaded', 'created_at', 'size_readable',
  ],
}

export const salesColumns: Record<string, ResourceColumns> = {
  discounts: discountColumns,
  payments: paymentColumns,
  disputes: disputeColumns,
  'webhook-deliveries': webhookDeliveryColumns,
  'payment-methods': paymentMethodColumns,
  'custom-fields': customFieldColumns,
  files: fileColumns,
}
