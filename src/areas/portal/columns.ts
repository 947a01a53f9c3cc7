// Columns of the Customer Portal's own shapes (the signed-in customer) and of customer sessions. Portal
// orders, subscriptions, benefit grants and license keys have the Core shapes and reuse their columns.
import {child, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'

const portalCustomer = columnsOf<Schema<'CustomerPortalCustomer'>>()
const session = columnsOf<Schema<'CustomerSession'>>()

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

export const portalColumns: Record<string, ResourceColumns> = {
  'portal-customer': portalCustomerColumns,
  'portal-members': portalMemberColumns,
  'customer-sessions': customerSessionColumns,
}
