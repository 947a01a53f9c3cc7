// Columns of discounts, payments and disputes.
import {asMoney, child, column, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {cardText, formatMoney} from '../../cli/output/format.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'

const discount = columnsOf<Schema<'Discount'>>()
const payment = columnsOf<Schema<'Payment'>>()
const dispute = columnsOf<Schema<'Dispute'>>()
const delivery = columnsOf<Schema<'WebhookDelivery'>>()
const paymentMethod = columnsOf<Schema<'PaymentMethod'>>()
const customField = columnsOf<Schema<'CustomField'>>()
const file = columnsOf<Schema<'FileRead'>>()

/** `25%` or `$5.00` (every currency of a fixed discount). */
export function discountValue(row: Row): string {
  if (row.type === 'percentage' && typeof row.basis_points === 'number') return `${row.basis_points / 100}%`
  const amounts = child(row.amounts) ?? {}
  return Object.entries(amounts)
    .map(([currency, amount]) => formatMoney(Number(amount), currency))
    .join(', ')
}

/** A fixed discount's amount in minor units with its currency (the first of its currencies). */
function discountAmount(row: Row): unknown {
  if (row.type !== 'fixed') return undefined
  const [first] = Object.entries(child(row.amounts) ?? {})
  return first ? asMoney(first[1], first[0]) : asMoney(row.amount, row.currency)
}

/** `once`, `forever`, `3 months`. */
export const discountDuration = (row: Row): string =>
  row.duration === 'repeating' ? `${String(row.duration_in_months)} month${row.duration_in_months === 1 ? '' : 's'}` : String(row.duration ?? '')

const redemptions = (row: Row) =>
  row.max_redemptions == null ? String(row.redemptions_count ?? 0) : `${String(row.redemptions_count ?? 0)}/${String(row.max_redemptions)}`

export const discountColumns: ResourceColumns = {
  columns: [
    discount.column('id', 'ID', 'id'),
    discount.column('name', 'Name', 'text'),
    discount.column('code', 'Code', 'text'),
    {
      ...discount.column('value', 'Off', 'text', discountValue),
      // csv and tsv: basis points of a percentage, minor units of a fixed amount (a currency column follows)
      raw: [discount.column('basis_points', 'Basis points', 'text'), column('amount', 'Amount', 'money', discountAmount)],
    },
    discount.column('duration', 'Duration', 'text', discountDuration),
    discount.column('redemptions', 'Redeemed', 'text', redemptions),
    discount.column('starts_at', 'Starts', 'date'),
    discount.column('ends_at', 'Ends', 'date'),
    discount.column('products', 'Products', 'text', (row) => (Array.isArray(row.products) ? row.products.map((p) => child(p)?.name ?? '').join(', ') : '')),
    discount.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'name', 'code', 'value', 'duration', 'redemptions', 'ends_at'],
  fields: discount.fields([
    'id',
    'created_at',
    'modified_at',
    'metadata',
    'name',
    'code',
    'type',
    'duration',
    'duration_in_months',
    'basis_points',
    'amounts',
    'starts_at',
    'ends_at',
    'max_redemptions',
    'redemptions_count',
    'organization_id',
    'products',
    'amount',
    'currency',
    'max_redemptions_per_customer',
  ]),
}

export const paymentColumns: ResourceColumns = {
  columns: [
    payment.column('id', 'ID', 'id'),
    payment.column('created_at', 'Created', 'date'),
    payment.column('status', 'Status', 'status'),
    payment.money('amount', 'Amount'),
    payment.column('method', 'Method', 'text', (row) => {
      const card = child((row as Row).method_metadata)
      return card?.last4 ? `${String(row.method)} ${cardText(card)}` : String(row.method ?? '')
    }),
    payment.column('trigger', 'Trigger', 'text'),
    payment.column('order_id', 'Order', 'id'),
    payment.column('checkout_id', 'Checkout', 'id'),
    payment.column('decline_reason', 'Declined', 'text'),
  ],
  defaults: ['id', 'created_at', 'status', 'amount', 'method', 'order_id'],
  fields: payment.fields([
    'id',
    'created_at',
    'modified_at',
    'processor',
    'status',
    'amount',
    'currency',
    'method',
    'trigger',
    'decline_reason',
    'decline_message',
    'organization_id',
    'checkout_id',
    'order_id',
    'processor_metadata',
    'method_metadata',
  ]),
}

export const disputeColumns: ResourceColumns = {
  columns: [
    dispute.column('id', 'ID', 'id'),
    dispute.column('created_at', 'Opened', 'date'),
    dispute.column('status', 'Status', 'status'),
    dispute.money('amount', 'Amount'),
    dispute.money('tax_amount', 'Tax'),
    dispute.column('reason', 'Reason', 'text'),
    dispute.column('evidence_due_by', 'Evidence due', 'date'),
    dispute.column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? ''),
    dispute.column('order_id', 'Order', 'id'),
    dispute.column('payment_id', 'Payment', 'id'),
  ],
  defaults: ['id', 'created_at', 'status', 'amount', 'reason', 'evidence_due_by', 'customer', 'order_id'],
  fields: dispute.fields([
    'id',
    'created_at',
    'modified_at',
    'status',
    'resolved',
    'closed',
    'amount',
    'tax_amount',
    'currency',
    'reason',
    'evidence_due_by',
    'past_due',
    'order_id',
    'payment_id',
    'customer',
    'case_id',
  ]),
}

export const webhookDeliveryColumns: ResourceColumns = {
  columns: [
    delivery.column('id', 'ID', 'id'),
    delivery.column('created_at', 'Sent', 'date'),
    delivery.column('succeeded', 'Succeeded', 'bool'),
    delivery.column('http_code', 'HTTP', 'text'),
    delivery.column('event_type', 'Event', 'text', (row) => child(row.webhook_event)?.type ?? ''),
    delivery.column('event_id', 'Event ID', 'id', (row) => child(row.webhook_event)?.id ?? ''),
    // the version of the event's payload, which a redelivery keeps (polarsource/polar #14141)
    delivery.column('api_version', 'API version', 'text', (row) => child(row.webhook_event)?.api_version ?? ''),
    delivery.column('response', 'Response', 'text'),
  ],
  defaults: ['id', 'created_at', 'succeeded', 'http_code', 'event_type', 'event_id', 'api_version'],
  fields: delivery.fields(['id', 'created_at', 'modified_at', 'succeeded', 'http_code', 'response', 'webhook_event']),
}

export const paymentMethodColumns: ResourceColumns = {
  columns: [
    paymentMethod.column('id', 'ID', 'id'),
    paymentMethod.column('type', 'Type', 'text'),
    paymentMethod.column('card', 'Card', 'text', (row) => {
      const m = child((row as Row).method_metadata)
      return m?.last4 ? cardText(m) : ''
    }),
    paymentMethod.column('customer_id', 'Customer', 'id'),
    paymentMethod.column('created_at', 'Added', 'date'),
  ],
  defaults: ['id', 'type', 'card', 'created_at'],
  fields: paymentMethod.fields(['id', 'created_at', 'modified_at', 'processor', 'customer_id', 'type', 'is_default', 'method_metadata']),
}

export const customFieldColumns: ResourceColumns = {
  columns: [
    customField.column('id', 'ID', 'id'),
    customField.column('slug', 'Slug', 'text'),
    customField.column('name', 'Name', 'text'),
    customField.column('type', 'Type', 'text'),
    customField.column('label', 'Label', 'text', (row) => child(row.properties)?.form_label ?? ''),
    customField.column('options', 'Options', 'text', (row) => {
      const options = child(row.properties)?.options
      return Array.isArray(options) ? options.map((o) => child(o)?.label ?? '').join(', ') : ''
    }),
    customField.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'slug', 'name', 'type', 'label', 'options'],
  fields: customField.fields(['id', 'created_at', 'modified_at', 'metadata', 'type', 'slug', 'name', 'organization_id', 'properties']),
}

export const fileColumns: ResourceColumns = {
  columns: [
    file.column('id', 'ID', 'id'),
    file.column('name', 'Name', 'text'),
    file.column('size', 'Size', 'bytes'),
    file.column('size_readable', 'Size (text)', 'text'),
    file.column('mime_type', 'Type', 'text'),
    file.column('service', 'For', 'text'),
    file.column('version', 'Version', 'text'),
    file.column('is_uploaded', 'Uploaded', 'bool'),
    file.column('checksum_sha256_hex', 'SHA-256', 'text'),
    file.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'name', 'size', 'mime_type', 'service', 'version', 'created_at'],
  fields: file.fields([
    'id',
    'organization_id',
    'name',
    'path',
    'mime_type',
    'size',
    'storage_version',
    'checksum_etag',
    'checksum_sha256_base64',
    'checksum_sha256_hex',
    'last_modified_at',
    'version',
    'service',
    'is_uploaded',
    'created_at',
    'size_readable',
    'public_url',
    'flagged_malicious_at',
  ]),
}

const benefitFile = columnsOf<Schema<'BenefitDownloadableFile'>>()

/** A downloadables benefit's files: a file's columns and its download counts. */
export const benefitFileColumns: ResourceColumns = {
  columns: [
    benefitFile.column('id', 'ID', 'id'),
    benefitFile.column('name', 'Name', 'text'),
    benefitFile.column('size', 'Size', 'bytes'),
    benefitFile.column('mime_type', 'Type', 'text'),
    benefitFile.column('version', 'Version', 'text'),
    benefitFile.column('downloaders', 'Downloaders', 'text'),
    benefitFile.column('downloads', 'Downloads', 'text'),
    benefitFile.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'name', 'size', 'version', 'downloaders', 'downloads'],
  fields: benefitFile.fields([
    'id',
    'organization_id',
    'name',
    'path',
    'mime_type',
    'size',
    'storage_version',
    'checksum_etag',
    'checksum_sha256_base64',
    'checksum_sha256_hex',
    'last_modified_at',
    'version',
    'service',
    'is_uploaded',
    'created_at',
    'flagged_malicious_at',
    'downloaders',
    'downloads',
    'size_readable',
  ]),
}

export const salesColumns: Record<string, ResourceColumns> = {
  discounts: discountColumns,
  payments: paymentColumns,
  disputes: disputeColumns,
  'webhook-deliveries': webhookDeliveryColumns,
  'payment-methods': paymentMethodColumns,
  'custom-fields': customFieldColumns,
  files: fileColumns,
  'benefit-files': benefitFileColumns,
}
