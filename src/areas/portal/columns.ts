// Columns of the Customer Portal's own shapes (the signed-in customer) and of customer sessions. Portal
// orders, subscriptions, benefit grants and license keys have the Core shapes and reuse their columns.
import {child, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import {cardText as cardWords} from '../../cli/output/format.js'
import type {Schema} from '../../client/wire/index.js'

const portalCustomer = columnsOf<Schema<'CustomerPortalCustomer'>>()
const session = columnsOf<Schema<'CustomerSession'>>()
const user = columnsOf<Schema<'PortalAuthenticatedUser'> & Schema<'CustomerCustomerSession'>>()
const method = columnsOf<Schema<'PaymentMethodCard'>>()
const wallet = columnsOf<Schema<'CustomerWallet'>>()
const downloadable = columnsOf<Schema<'DownloadableRead'>>()
const organizationData = columnsOf<Schema<'CustomerOrganizationData'>>()
const paymentStatus = columnsOf<Schema<'CustomerOrderPaymentStatus'> & Schema<'CustomerOrderPaymentConfirmation'> & {order_id: string}>()

/** `1 Main St, Floor 3, 12345 Springfield, US-IL, US` from an Address. */
export function addressText(value: unknown): string {
  const a = child(value)
  if (!a) return ''
  const town = [a.postal_code, a.city].filter((p) => typeof p === 'string' && p !== '').join(' ')
  return [a.line1, a.line2, town, a.state, a.country].filter((p) => typeof p === 'string' && p !== '').join(', ')
}

/** A tax id is `[value, format]` on the wire. */
const taxIdText = (row: Row) => (Array.isArray(row.tax_id) ? row.tax_id.filter((p) => p !== null).join(' ') : row.tax_id)

export const portalCustomerColumns: ResourceColumns = {
  columns: [
    portalCustomer.column('id', 'ID', 'id'),
    portalCustomer.column('email', 'Email', 'text'),
    portalCustomer.column('name', 'Name', 'text'),
    portalCustomer.column('billing_name', 'Billing name', 'text'),
    portalCustomer.column('billing_address', 'Billing address', 'text', (row) => addressText(row.billing_address)),
    portalCustomer.column('tax_id', 'Tax id', 'text', taxIdText),
    portalCustomer.column('type', 'Type', 'text'),
    portalCustomer.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'email', 'name', 'billing_name', 'billing_address', 'tax_id', 'created_at'],
  fields: portalCustomer.fields([
    'id',
    'created_at',
    'modified_at',
    'email',
    'email_verified',
    'name',
    'billing_name',
    'billing_address',
    'tax_id',
    'oauth_accounts',
    'default_payment_method_id',
    'type',
    'locale',
  ]),
}

export const customerSessionColumns: ResourceColumns = {
  columns: [
    session.column('token', 'Token', 'text'),
    session.column('expires_at', 'Expires', 'date'),
    session.column('customer_portal_url', 'Portal URL', 'text'),
    session.column('customer_id', 'Customer', 'id'),
    session.column('email', 'Email', 'text', (row) => child(row.customer)?.email ?? ''),
    session.column('external_id', 'External id', 'text', (row) => child(row.customer)?.external_id ?? ''),
    session.column('return_url', 'Return URL', 'text'),
    session.column('id', 'ID', 'id'),
    session.column('created_at', 'Created', 'date'),
  ],
  defaults: ['token', 'expires_at', 'customer_portal_url', 'customer_id', 'return_url'],
  fields: session.fields(['id', 'created_at', 'modified_at', 'token', 'expires_at', 'return_url', 'customer_portal_url', 'customer_id', 'customer']),
}

const portalMember = columnsOf<Schema<'CustomerPortalMember'>>()

/** The signed-in team's members (`till portal members ...`). */
export const portalMemberColumns: ResourceColumns = {
  columns: [
    portalMember.column('id', 'ID', 'id'),
    portalMember.column('email', 'Email', 'text'),
    portalMember.column('name', 'Name', 'text'),
    portalMember.column('role', 'Role', 'text'),
    portalMember.column('created_at', 'Created', 'date'),
    portalMember.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'email', 'name', 'role', 'created_at'],
  fields: portalMember.fields(['created_at', 'modified_at', 'id', 'email', 'name', 'role']),
}

/** The signed-in user and the session's expiry (till portal session). */
const portalSessionColumns: ResourceColumns = {
  columns: [
    user.column('type', 'Type', 'text'),
    user.column('email', 'Email', 'text'),
    user.column('name', 'Name', 'text'),
    user.column('customer_id', 'Customer', 'id'),
    user.column('member_id', 'Member', 'id'),
    user.column('role', 'Role', 'text'),
    user.column('expires_at', 'Expires', 'date'),
    user.column('return_url', 'Return URL', 'text'),
  ],
  defaults: ['type', 'email', 'name', 'customer_id', 'expires_at'],
  fields: user.fields(['type', 'name', 'email', 'customer_id', 'member_id', 'role', 'expires_at', 'return_url']),
}

const cardText = (row: Row) => {
  const m = child(row.method_metadata)
  return m ? cardWords(m) : String(row.type ?? '')
}

const portalPaymentMethodColumns: ResourceColumns = {
  columns: [
    method.column('id', 'ID', 'id'),
    method.column('type', 'Type', 'text'),
    method.column('card', 'Card', 'text', cardText),
    method.column('processor', 'Processor', 'text'),
    method.column('created_at', 'Added', 'date'),
  ],
  defaults: ['id', 'type', 'card', 'created_at'],
  fields: method.fields(['id', 'created_at', 'modified_at', 'processor', 'customer_id', 'type', 'method_metadata']),
}

const portalWalletColumns: ResourceColumns = {
  columns: [
    wallet.column('id', 'ID', 'id'),
    wallet.money('balance', 'Balance'),
    wallet.column('currency', 'Currency', 'text'),
    wallet.column('created_at', 'Created', 'date'),
    wallet.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'balance', 'currency', 'modified_at'],
  fields: wallet.fields(['id', 'created_at', 'modified_at', 'customer_id', 'balance', 'currency']),
}

const portalDownloadableColumns: ResourceColumns = {
  columns: [
    downloadable.column('id', 'ID', 'id'),
    downloadable.column('name', 'File', 'text', (row) => child(row.file)?.name ?? ''),
    downloadable.column('size', 'Size', 'text', (row) => child(row.file)?.size_readable ?? ''),
    downloadable.column('benefit_id', 'Benefit', 'id'),
    downloadable.column('url', 'Download URL', 'text', (row) => child(child(row.file)?.download)?.url ?? ''),
  ],
  defaults: ['id', 'name', 'size', 'benefit_id', 'url'],
  fields: downloadable.fields(['id', 'benefit_id', 'file']),
}

const portalOrganizationColumns: ResourceColumns = {
  columns: [
    organizationData.column('name', 'Name', 'text', (row) => child(row.organization)?.name ?? ''),
    organizationData.column('slug', 'Slug', 'text', (row) => child(row.organization)?.slug ?? ''),
    organizationData.column('products', 'Products', 'text', (row) =>
      Array.isArray(row.products) ? row.products.map((p) => child(p)?.name ?? '').join(', ') : '',
    ),
  ],
  defaults: ['name', 'slug', 'products'],
  fields: organizationData.fields(['organization', 'products']),
}

/** An order's payment status, or the outcome of a retried payment. */
const portalPaymentStatusColumns: ResourceColumns = {
  columns: [
    paymentStatus.column('order_id', 'Order', 'id'),
    paymentStatus.column('status', 'Status', 'text'),
    paymentStatus.column('error', 'Error', 'text'),
    paymentStatus.column('client_secret', 'Client secret', 'text'),
  ],
  defaults: ['order_id', 'status', 'error'],
  fields: paymentStatus.fields(['order_id', 'status', 'error', 'client_secret']),
}

export const portalColumns: Record<string, ResourceColumns> = {
  'portal-customer': portalCustomerColumns,
  'portal-members': portalMemberColumns,
  'customer-sessions': customerSessionColumns,
  'portal-session': portalSessionColumns,
  'portal-payment-methods': portalPaymentMethodColumns,
  'portal-wallets': portalWalletColumns,
  'portal-downloadables': portalDownloadableColumns,
  'portal-organization': portalOrganizationColumns,
  'portal-payment-status': portalPaymentStatusColumns,
}
