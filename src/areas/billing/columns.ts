// Columns of orders, refunds and subscriptions.
import {asMoney, child, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {formatMoney} from '../../cli/output/format.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'
import {priceLine} from '../catalog/columns.js'
import {addressText} from '../portal/columns.js'

const refund = columnsOf<Schema<'Refund'>>()
const subscription = columnsOf<Schema<'Subscription'>>()
const order = columnsOf<Schema<'Order'>>()

/** `monthly`, `every 3 months`, `yearly`... from a subscription's interval fields. */
export function billingInterval(row: Row): string {
  const interval = row.recurring_interval
  if (typeof interval !== 'string') return ''
  const count = typeof row.recurring_interval_count === 'number' ? row.recurring_interval_count : 1
  if (count > 1) return `every ${count} ${interval}s`
  return ({day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly'} as Record<string, string>)[interval] ?? interval
}

export const refundColumns: ResourceColumns = {
  columns: [
    refund.column('id', 'ID', 'id'),
    refund.column('created_at', 'Created', 'date'),
    refund.column('status', 'Status', 'status'),
    refund.column('reason', 'Reason', 'text'),
    refund.money('amount', 'Amount'),
    refund.money('tax_amount', 'Tax'),
    refund.column('order_id', 'Order', 'id'),
    refund.column('customer_id', 'Customer', 'id'),
    refund.column('subscription_id', 'Subscription', 'id'),
    refund.column('revoke_benefits', 'Revoked benefits', 'bool'),
  ],
  defaults: ['id', 'created_at', 'status', 'reason', 'amount', 'tax_amount', 'order_id'],
  fields: refund.fields([
    'id',
    'created_at',
    'modified_at',
    'metadata',
    'status',
    'reason',
    'amount',
    'tax_amount',
    'currency',
    'organization_id',
    'order_id',
    'subscription_id',
    'customer_id',
    'revoke_benefits',
    'dispute',
  ]),
}

export const subscriptionColumns: ResourceColumns = {
  columns: [
    subscription.column('id', 'ID', 'id'),
    subscription.column('status', 'Status', 'status'),
    subscription.column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
    subscription.column('product', 'Product', 'text', (row) => child(row.product)?.name ?? row.product_id),
    subscription.money('amount', 'Amount'),
    subscription.column('interval', 'Interval', 'text', billingInterval),
    subscription.column('current_period_end', 'Period end', 'date'),
    subscription.column('cancel_at_period_end', 'Cancels', 'bool', subscription.field('cancel_at_period_end')),
    subscription.column('ends_at', 'Ends', 'date'),
    subscription.column('started_at', 'Started', 'date'),
    subscription.column('created_at', 'Created', 'date'),
  ],
  defaults: ['id', 'status', 'customer', 'product', 'amount', 'interval', 'current_period_end', 'cancel_at_period_end'],
  fields: subscription.fields([
    'id',
    'created_at',
    'modified_at',
    'amount',
    'currency',
    'recurring_interval',
    'recurring_interval_count',
    'status',
    'current_period_start',
    'current_period_end',
    'current_meter_period_start',
    'current_meter_period_end',
    'trial_start',
    'trial_end',
    'cancel_at_period_end',
    'canceled_at',
    'started_at',
    'ends_at',
    'ended_at',
    'past_due_at',
    'pause_at_period_end',
    'paused_at',
    'resumes_at',
    'customer_id',
    'product_id',
    'discount_id',
    'checkout_id',
    'seats',
    'customer_cancellation_reason',
    'customer_cancellation_comment',
    'metadata',
    'custom_field_data',
    'customer',
    'product',
    'discount',
    'prices',
    'meters',
    'pending_update',
  ]),
}

export const orderColumns: ResourceColumns = {
  columns: [
    order.column('id', 'ID', 'id'),
    order.column('created_at', 'Created', 'date'),
    order.column('status', 'Status', 'status'),
    order.column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
    order.column('product', 'Product', 'text', (row) => child(row.product)?.name ?? ''),
    order.money('net_amount', 'Net'),
    order.money('total_amount', 'Total'),
    order.column('invoice', 'Invoice', 'bool', order.field('is_invoice_generated')),
    order.column('billing_reason', 'Reason', 'text'),
    order.money('tax_amount', 'Tax'),
    order.money('refunded_amount', 'Refunded'),
    order.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'created_at', 'status', 'customer', 'product', 'net_amount', 'total_amount', 'invoice'],
  fields: order.fields([
    'id',
    'created_at',
    'modified_at',
    'status',
    'paid',
    'subtotal_amount',
    'discount_amount',
    'net_amount',
    'tax_amount',
    'total_amount',
    'applied_balance_amount',
    'due_amount',
    'refunded_amount',
    'refunded_tax_amount',
    'refundable_amount',
    'refundable_tax_amount',
    'currency',
    'billing_reason',
    'billing_name',
    'billing_address',
    'invoice_number',
    'receipt_number',
    'is_invoice_generated',
    'seats',
    'customer_id',
    'product_id',
    'discount_id',
    'subscription_id',
    'checkout_id',
    'next_payment_attempt_at',
    'metadata',
    'custom_field_data',
    'platform_fee_amount',
    'platform_fee_currency',
    'customer',
    'product',
    'discount',
    'subscription',
    'items',
    'description',
  ]),
}

// ---- detail views: what an operator looks at first ----

/** `Ada Lovelace <ada@example.com>` from a nested customer, else the customer id. */
export const customerText = (row: Row): unknown => {
  const c = child(row.customer)
  if (!c) return row.customer_id
  return typeof c.name === 'string' && c.name !== '' ? `${c.name} <${String(c.email)}>` : c.email
}

/** An amount that is not zero, as money of the row's currency (a zero discount or refund is left out). */
const nonZero = (key: string) => (row: Row) => (typeof row[key] === 'number' && row[key] !== 0 ? asMoney(row[key], row.currency) : undefined)

/** `$29.00 monthly` */
const amountText = (row: Row) =>
  typeof row.amount === 'number' && typeof row.currency === 'string'
    ? `${formatMoney(row.amount, row.currency, {grouping: true})} ${billingInterval(row)}`.trim()
    : ''

orderColumns.detail = {
  summary: [
    order.column('id', 'ID', 'id'),
    order.column('status', 'Status', 'status'),
    order.column('customer', 'Customer', 'text', customerText),
    order.column('product', 'Product', 'text', (row) => child(row.product)?.name ?? row.description),
    order.money('total_amount', 'Total'),
    order.money('net_amount', 'Net'),
    order.money('tax_amount', 'Tax'),
    order.column('discount_amount', 'Discount', 'money', nonZero('discount_amount')),
    order.column('refunded_amount', 'Refunded', 'money', nonZero('refunded_amount')),
    order.column('billing_reason', 'Reason', 'text', (row) => (typeof row.billing_reason === 'string' ? row.billing_reason.replaceAll('_', ' ') : '')),
    order.column('invoice_number', 'Invoice', 'text'),
    order.column('billing_name', 'Billing name', 'text'),
    order.column('billing_address', 'Billing address', 'text', (row) => addressText(row.billing_address)),
    order.column('created_at', 'Created', 'date'),
    // the ids to pivot on (till customers get, products get, subscriptions get, checkouts get)
    order.column('customer_id', 'Customer id', 'id'),
    order.column('product_id', 'Product id', 'id'),
    order.column('subscription_id', 'Subscription id', 'id'),
    order.column('checkout_id', 'Checkout id', 'id'),
    // the service's due_amount is what the order was due, paid or not: shown only while it is still owed
    order.column('due_amount', 'Due', 'money', (row) => (row.paid === false ? nonZero('due_amount')(row) : undefined)),
  ],
  lists: [{title: 'Items', key: 'items', line: (item, row) => `${String(item.label ?? '')}  ${money(item.amount, row.currency)}`}],
  covers: [
    'id',
    'status',
    'customer',
    'customer_id',
    'product',
    'product_id',
    'description',
    'total_amount',
    'net_amount',
    'tax_amount',
    'discount_amount',
    'refunded_amount',
    'currency',
    'billing_reason',
    'invoice_number',
    'billing_name',
    'billing_address',
    'subscription_id',
    'checkout_id',
    'due_amount',
    'created_at',
    'items',
  ],
}

subscriptionColumns.detail = {
  summary: [
    subscription.column('id', 'ID', 'id'),
    subscription.column('status', 'Status', 'status'),
    subscription.column('customer', 'Customer', 'text', customerText),
    subscription.column('product', 'Product', 'text', (row) => child(row.product)?.name ?? row.product_id),
    subscription.column('amount', 'Amount', 'text', amountText),
    subscription.column('discount', 'Discount', 'text', (row) => child(row.discount)?.name ?? ''),
    subscription.column('seats', 'Seats', 'text', (row) => (typeof row.seats === 'number' ? String(row.seats) : '')),
    subscription.column('current_period_start', 'Period start', 'date'),
    subscription.column('current_period_end', 'Period end', 'date'),
    subscription.column('trial_end', 'Trial ends', 'date'),
    subscription.column('cancel_at_period_end', 'Cancels at period end', 'bool'),
    subscription.column('canceled_at', 'Canceled', 'date'),
    subscription.column('ends_at', 'Ends', 'date'),
    subscription.column('ended_at', 'Ended', 'date'),
    subscription.column('past_due_at', 'Past due since', 'date'),
    subscription.column('started_at', 'Started', 'date'),
  ],
  lists: [{title: 'Prices', key: 'prices', line: priceLine}],
  covers: [
    'id',
    'status',
    'customer',
    'customer_id',
    'product',
    'product_id',
    'amount',
    'currency',
    'recurring_interval',
    'recurring_interval_count',
    'discount',
    'discount_id',
    'seats',
    'current_period_start',
    'current_period_end',
    'trial_end',
    'cancel_at_period_end',
    'canceled_at',
    'ends_at',
    'ended_at',
    'past_due_at',
    'started_at',
    'prices',
  ],
}

const money = (amount: unknown, currency: unknown) =>
  typeof amount === 'number' && typeof currency === 'string' ? formatMoney(amount, currency, {grouping: true}) : ''

export const billingColumns: Record<string, ResourceColumns> = {
  orders: orderColumns,
  refunds: refundColumns,
  subscriptions: subscriptionColumns,
}
