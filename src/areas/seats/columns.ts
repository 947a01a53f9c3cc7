// Columns of customer seats and of an invitation's claim info.
import type {ResourceColumns} from '../../cli/output/columns.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'

const seat = columnsOf<Schema<'CustomerSeat'>>()
const info = columnsOf<Schema<'SeatClaimInfo'>>()

export const seatColumns: ResourceColumns = {
  columns: [
    seat.column('id', 'ID', 'id'),
    seat.column('status', 'Status', 'status'),
    seat.column('email', 'Email', 'text', (row) => row.email ?? row.customer_email ?? ''),
    seat.column('customer_id', 'Customer', 'id'),
    seat.column('subscription_id', 'Subscription', 'id'),
    seat.column('order_id', 'Order', 'id'),
    seat.column('invitation_token_expires_at', 'Invitation expires', 'date'),
    seat.column('claimed_at', 'Claimed', 'date'),
    seat.column('revoked_at', 'Revoked', 'date'),
    seat.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'status', 'email', 'customer_id', 'claimed_at', 'revoked_at'],
  fields: seat.fields([
    'id',
    'created_at',
    'modified_at',
    'subscription_id',
    'order_id',
    'status',
    'customer_id',
    'member_id',
    'member',
    'email',
    'customer_email',
    'invitation_token_expires_at',
    'claimed_at',
    'revoked_at',
    'seat_metadata',
  ]),
}

export const claimInfoColumns: ResourceColumns = {
  columns: [
    info.column('product_name', 'Product', 'text'),
    info.column('product_id', 'Product id', 'id'),
    info.column('organization_name', 'Organization', 'text'),
    info.column('organization_slug', 'Organization slug', 'text'),
    info.column('customer_email', 'Email', 'text'),
    info.column('can_claim', 'Can claim', 'bool'),
  ],
  defaults: ['product_name', 'organization_name', 'customer_email', 'can_claim'],
  fields: info.fields(['product_name', 'product_id', 'organization_name', 'organization_slug', 'customer_email', 'can_claim']),
}

export const seatsColumns: Record<string, ResourceColumns> = {
  'customer-seats': seatColumns,
  'seat-claim-info': claimInfoColumns,
}
