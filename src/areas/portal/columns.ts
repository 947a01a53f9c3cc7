// Columns of the Customer Portal's own shapes (the signed-in customer) and of customer sessions. Portal
// orders, subscriptions, benefit grants and license keys have the Core shapes and reuse their columns.
import {child, column, type ResourceColumns, type Row} from '../../cli/output/columns.js'

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
    column('id', 'ID', 'id'),
    column('email', 'Email', 'text'),
    column('name', 'Name', 'text'),
    column('billing_name', 'Billing name', 'text'),
    column('billing_address', 'Billing address', 'text', (row) => addressText(row.billing_address)),
    column('tax_id', 'Tax id', 'text', taxIdText),
    column('type', 'Type', 'text'),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'email', 'name', 'billing_name', 'billing_address', 'tax_id', 'created_at'],
  fields: [
    'id', 'created_at', 'modified_at', 'email', 'email_verified', 'name', 'billing_name', 'billing_address', 'tax_id',
    'oauth_accounts', 'default_payment_method_id', 'type',
  ],
}

export const customerSessionColumns: ResourceColumns = {
  columns: [
    column('token', 'Token', 'text'),
    column('expires_at', 'Expires', 'date'),
    column('customer_portal_url', 'Portal URL', 'text'),
    column('customer_id', 'Customer', 'id'),
    column('email', 'Email', 'text', (row) => child(row.customer)?.email ?? ''),
    column('external_id', 'External id', 'text', (row) => child(row.customer)?.external_id ?? ''),
    column('return_url', 'Return URL', 'text'),
    column('id', 'ID', 'id'),
    column('created_at', 'Created', 'date'),
  ],
  defaults: ['token', 'expires_at', 'customer_portal_url', 'customer_id', 'return_url'],
  fields: ['id', 'created_at', 'modified_at', 'token', 'expires_at', 'return_url', 'customer_portal_url', 'customer_id', 'customer'],
}

export const portalColumns: Record<string, ResourceColumns> = {
  'portal-customer': portalCustomerColumns,
  'customer-sessions': customerSessionColumns,
}
