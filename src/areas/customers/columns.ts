// Columns of customers, customer state, license keys, webhook endpoints and the organization.
import {child, column, moneyColumn, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {LicenseKeyNewer, Schema, WebhookEndpoint} from '../../client/wire/index.js'
import {addressText} from '../portal/columns.js'
import {signingOf} from '../webhooks/signing.js'

const customer = columnsOf<Schema<'Customer'>>()
const stateSubscription = columnsOf<Schema<'CustomerStateSubscription'>>()
const stateBenefit = columnsOf<Schema<'CustomerStateBenefitGrant'>>()
type LicenseKey = (Schema<'LicenseKeyRead'> | Schema<'LicenseKeyWithActivations'> | Schema<'ValidatedLicenseKey'>) & LicenseKeyNewer
const licenseKey = columnsOf<LicenseKey>()
const activation = columnsOf<Schema<'LicenseKeyActivationRead'>>()
const endpoint = columnsOf<WebhookEndpoint>()

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
  'id',
  'created_at',
  'modified_at',
  'metadata',
  'external_id',
  'email',
  'email_verified',
  'type',
  'name',
  'billing_name',
  'billing_address',
  'tax_id',
  'locale',
  'organization_id',
  'default_payment_method_id',
  'deleted_at',
  'first_user_event_at',
  'avatar_url',
]

export const customerListColumns: ResourceColumns = {
  columns: [
    customer.column('id', 'ID', 'id'),
    customer.column('email', 'Email', 'text'),
    customer.column('name', 'Name', 'text'),
    customer.column('external_id', 'External ID', 'id'),
    customer.column('type', 'Type', 'text'),
    customer.column('country', 'Country', 'text', (row) => child(row.billing_address)?.country ?? ''),
    metadataColumn(),
    customer.column('created_at', 'Created', 'date'),
    customer.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'email', 'name', 'type', 'external_id', 'created_at'],
  fields: CUSTOMER_FIELDS,
}

/** The state view's active subscriptions (rows carry a `product` name added by the command). */
export const stateSubscriptionColumns: ResourceColumns = {
  columns: [
    stateSubscription.column('id', 'Subscription', 'id'),
    stateSubscription.column('status', 'Status', 'status'),
    stateSubscription.column('product', 'Product', 'text', (row) => (row as Row).product),
    stateSubscription.money('amount', 'Amount'),
    stateSubscription.column('recurring_interval', 'Every', 'text'),
    stateSubscription.column('current_period_end', 'Renews', 'date'),
    stateSubscription.column('cancel_at_period_end', 'Cancels', 'bool'),
    metadataColumn(),
  ],
  defaults: ['id', 'status', 'product', 'amount', 'recurring_interval', 'current_period_end', 'cancel_at_period_end', 'metadata'],
}

/** The state view's granted benefits (rows carry a `benefit` description added by the command). */
export const stateBenefitColumns: ResourceColumns = {
  columns: [
    stateBenefit.column('id', 'Grant', 'id'),
    stateBenefit.column('benefit', 'Benefit', 'text', (row) => (row as Row).benefit),
    stateBenefit.column('benefit_type', 'Type', 'text'),
    stateBenefit.column('granted_at', 'Granted', 'date'),
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
  fields: [
    'kind',
    'id',
    'customer_id',
    'created_at',
    'modified_at',
    'product',
    'benefit',
    'recurring_interval',
    'current_period_start',
    'cancel_at_period_end',
    'started_at',
    'ends_at',
    'currency',
    'properties',
  ],
}

/** `3`, or `3/10` when usage is limited. */
const usage = (row: Row) => (typeof row.limit_usage === 'number' ? `${String(row.usage)}/${row.limit_usage}` : row.usage)

export const licenseKeyColumns: ResourceColumns = {
  columns: [
    licenseKey.column('id', 'ID', 'id'),
    licenseKey.column('display_key', 'Key', 'text'),
    licenseKey.column('status', 'Status', 'status'),
    licenseKey.column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
    // from 2026-10 on: the seat member holding the key (none for a key granted to the customer)
    licenseKey.column('member', 'Member', 'text', (row) => child(row.member)?.email ?? row.member_id ?? ''),
    licenseKey.column('benefit_id', 'Benefit', 'id'),
    licenseKey.column('usage', 'Usage', 'text', usage),
    licenseKey.column('limit_activations', 'Activations', 'text'),
    licenseKey.column('validations', 'Validations', 'text'),
    licenseKey.column('last_validated_at', 'Last validated', 'date'),
    licenseKey.column('expires_at', 'Expires', 'date'),
    licenseKey.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'display_key', 'status', 'customer', 'usage', 'validations', 'expires_at', 'created_at'],
  fields: licenseKey.fields([
    'id',
    'created_at',
    'modified_at',
    'organization_id',
    'customer_id',
    'customer',
    'benefit_id',
    'key',
    'display_key',
    'status',
    'limit_activations',
    'usage',
    'limit_usage',
    'validations',
    'last_validated_at',
    'expires_at',
    'activations',
    'activation',
    'member_id',
    'member',
    'subscription_id',
    'subscription',
    'order_id',
    'order',
  ]),
}

export const licenseKeyActivationColumns: ResourceColumns = {
  columns: [
    activation.column('id', 'ID', 'id'),
    activation.column('label', 'Label', 'text'),
    activation.column('license_key_id', 'License key', 'id'),
    metadataColumn('meta', 'Meta'),
    activation.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'label', 'license_key_id', 'meta', 'created_at'],
  fields: activation.fields(['id', 'license_key_id', 'label', 'meta', 'created_at', 'modified_at', 'license_key']),
}

export const webhookEndpointColumns: ResourceColumns = {
  columns: [
    endpoint.column('id', 'ID', 'id'),
    endpoint.column('url', 'URL', 'text'),
    endpoint.column('name', 'Name', 'text'),
    endpoint.column('format', 'Format', 'text'),
    endpoint.column('events', 'Events', 'text', (row) => (Array.isArray(row.events) ? row.events.join(', ') : '')),
    endpoint.column('enabled', 'Enabled', 'bool'),
    endpoint.column('api_version', 'API version', 'text'),
    endpoint.column('signing', 'Signing', 'text', (row) => signingOf(row)),
    endpoint.column('created_at', 'Created', 'date'),
    endpoint.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'url', 'name', 'format', 'events', 'enabled', 'api_version', 'signing'],
  fields: endpoint.fields([
    'id',
    'created_at',
    'modified_at',
    'url',
    'name',
    'format',
    'secret',
    'organization_id',
    'events',
    'enabled',
    'api_version',
    'uses_standard_webhook_signature',
  ]),
}

/** One line of `customers import`: what was done with it, or why it failed. */
const customerImportColumns: ResourceColumns = {
  columns: [
    column('line', 'Line', 'text'),
    column('action', 'Done', 'text', (row) => (row.ok ? (child(row.result)?.action ?? '') : 'failed')),
    column('id', 'ID', 'id', (row) => child(row.result)?.id ?? ''),
    column('email', 'Email', 'text', (row) => child(row.result)?.email ?? ''),
    column('external_id', 'External ID', 'id', (row) => child(row.result)?.external_id ?? ''),
    column('error', 'Error', 'text', (row) => child(row.error)?.message ?? ''),
  ],
  defaults: ['line', 'action', 'id', 'email', 'external_id', 'error'],
  fields: ['line', 'ok', 'result', 'error'],
}

customerListColumns.detail = {
  summary: [
    customer.column('id', 'ID', 'id'),
    customer.column('email', 'Email', 'text'),
    customer.column('name', 'Name', 'text'),
    customer.column('external_id', 'External ID', 'id'),
    customer.column('type', 'Type', 'text'),
    customer.column('billing_name', 'Billing name', 'text'),
    customer.column('billing_address', 'Billing address', 'text', (row) => addressText(row.billing_address)),
    customer.column('tax_id', 'Tax ID', 'text', (row) => (Array.isArray(row.tax_id) ? row.tax_id.filter((p) => p !== null).join(' ') : row.tax_id)),
    metadataColumn(),
    customer.column('deleted_at', 'Deleted', 'date'),
    customer.column('created_at', 'Created', 'date'),
  ],
  covers: ['id', 'email', 'name', 'external_id', 'type', 'billing_name', 'billing_address', 'tax_id', 'metadata', 'deleted_at', 'created_at'],
}

const member = columnsOf<Schema<'Member'>>()

/** A customer's members (`till customers members ...`). */
export const memberColumns: ResourceColumns = {
  columns: [
    member.column('id', 'ID', 'id'),
    member.column('email', 'Email', 'text'),
    member.column('name', 'Name', 'text'),
    member.column('role', 'Role', 'text'),
    member.column('external_id', 'External ID', 'id'),
    member.column('customer_id', 'Customer', 'id'),
    member.column('created_at', 'Created', 'date'),
    member.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'email', 'name', 'role', 'external_id', 'created_at'],
  fields: member.fields(['id', 'created_at', 'modified_at', 'customer_id', 'email', 'name', 'external_id', 'role']),
}

export const customerColumns: Record<string, ResourceColumns> = {
  customers: customerListColumns,
  members: memberColumns,
  'customer-imports': customerImportColumns,
  'customer-subscriptions': stateSubscriptionColumns,
  'customer-benefits': stateBenefitColumns,
  'customer-state': stateRowColumns,
  'license-keys': licenseKeyColumns,
  'license-key-activations': licenseKeyActivationColumns,
  'webhook-endpoints': webhookEndpointColumns,
}
