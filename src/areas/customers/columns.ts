// Columns of customers, customer state, license keys, webhook endpoints and the organization.
import {child, column, moneyColumn, type ResourceColumns, type Row} from '../../cli/output/columns.js'

/** `key=value, key=value` for a metadata object. */
export function metadataText(value: unknown): string {
  const object = child(value)
  if (!object) return ''
  return Object.entries(object)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ')
}

const metadataColumn = (key = 'metadata', header = 'Metadata') => column(key, header, 'text', (row) => metadataText(row[key]))

const CUSTOMER_FIELDS = [
  'id', 'created_at', 'modified_at', 'metadata', 'external_id', 'email', 'email_verified', 'type', 'name', 'billing_name',
  'billing_address', 'tax_id', 'locale', 'organization_id', 'default_payment_method_id', 'deleted_at', 'first_user_event_at', 'avatar_url',
]

export const customerListColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('email', 'Email', 'text'),
    column('name', 'Name', 'text'),
    column('external_id', 'External ID', 'id'),
    column('type', 'Type', 'text'),
    column('country', 'Country', 'text', (row) => child(row.billing_address)?.country ?? ''),
    metadataColumn(),
    column('created_at', 'Created', 'date'),
    column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'email', 'name', 'external_id', 'created_at'],
  fields: CUSTOMER_FIELDS,
}

/** The state view's active subscriptions (rows carry a `product` name added by the command). */
export const stateSubscriptionColumns: ResourceColumns = {
  columns: [
    column('id', 'Subscription', 'id'),
    column('status', 'Status', 'status'),
    column('product', 'Product', 'text'),
    moneyColumn('amount', 'Amount'),
    column('recurring_interval', 'Every', 'text'),
    column('current_period_end', 'Renews', 'date'),
    column('cancel_at_period_end', 'Cancels', 'bool'),
    metadataColumn(),
  ],
  defaults: ['id', 'status', 'product', 'amount', 'recurring_interval', 'current_period_end', 'cancel_at_period_end', 'metadata'],
}

/** The state view's granted benefits (rows carry a `benefit` description added by the command). */
export const stateBenefitColumns: ResourceColumns = {
  columns: [
    column('id', 'Grant', 'id'),
    column('benefit', 'Benefit', 'text'),
    column('benefit_type', 'Type', 'text'),
    column('granted_at', 'Granted', 'date'),
    metadataColumn('benefit_metadata', 'Benefit metadata'),
  ],
  defaults: ['id', 'benefit', 'benefit_type', 'granted_at', 'benefit_metadata'],
}

/** Both lists in one, for csv and tsv: each row says its `kind`. */
export const stateRowColumns: ResourceColumns = {
  columns: [
    column('kind', 'Kind', 'text'),
    column('id', 'ID', 'id'),
    column('status', 'Status', 'status'),
    column('product_id', 'Product ID', 'id'),
    column('benefit_id', 'Benefit ID', 'id'),
    column('benefit_type', 'Benefit type', 'text'),
    moneyColumn('amount', 'Amount'),
    column('current_period_end', 'Renews', 'date'),
    column('granted_at', 'Granted', 'date'),
    metadataColumn(),
    column('customer_id', 'Customer ID', 'id'),
  ],
  defaults: ['kind', 'id', 'status', 'product_id', 'benefit_id', 'benefit_type', 'amount', 'current_period_end', 'granted_at', 'metadata', 'customer_id'],
  fields: ['kind', 'id', 'customer_id', 'created_at', 'modified_at', 'product', 'benefit', 'recurring_interval', 'current_period_start', 'cancel_at_period_end', 'started_at', 'ends_at', 'currency', 'properties'],
}

/** `3`, or `3/10` when usage is limited. */
const usage = (row: Row) => (typeof row.limit_usage === 'number' ? `${String(row.usage)}/${row.limit_usage}` : row.usage)

export const licenseKeyColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('display_key', 'Key', 'text'),
    column('status', 'Status', 'status'),
    column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
    column('benefit_id', 'Benefit', 'id'),
    column('usage', 'Usage', 'text', usage),
    column('limit_activations', 'Activations', 'text'),
    column('validations', 'Validations', 'text'),
    column('last_validated_at', 'Last validated', 'date'),
    column('expires_at', 'Expires', 'date'),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'display_key', 'status', 'customer', 'usage', 'validations', 'expires_at', 'created_at'],
  fields: [
    'id', 'created_at', 'modified_at', 'organization_id', 'customer_id', 'customer', 'benefit_id', 'key', 'display_key', 'status',
    'limit_activations', 'usage', 'limit_usage', 'validations', 'last_validated_at', 'expires_at', 'activations', 'activation',
  ],
}

export const licenseKeyActivationColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('label', 'Label', 'text'),
    column('license_key_id', 'License key', 'id'),
    metadataColumn('meta', 'Meta'),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'label', 'license_key_id', 'meta', 'created_at'],
  fields: ['id', 'license_key_id', 'label', 'meta', 'created_at', 'modified_at', 'license_key'],
}

export const webhookEndpointColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('url', 'URL', 'text'),
    column('name', 'Name', 'text'),
    column('format', 'Format', 'text'),
    column('events', 'Events', 'text', (row) => (Array.isArray(row.events) ? row.events.join(', ') : '')),
    column('enabled', 'Enabled', 'bool'),
    column('created_at', 'Created', 'date'),
    column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'url', 'name', 'format', 'events', 'enabled'],
  fields: ['id', 'created_at', 'modified_at', 'url', 'name', 'format', 'secret', 'organization_id', 'events', 'enabled'],
}

export const customerColumns: Record<string, ResourceColumns> = {
  customers: customerListColumns,
  'customer-subscriptions': stateSubscriptionColumns,
  'customer-benefits': stateBenefitColumns,
  'customer-state': stateRowColumns,
  'license-keys': licenseKeyColumns,
  'license-key-activations': licenseKeyActivationColumns,
  'webhook-endpoints': webhookEndpointColumns,
}
