// An order's status and amounts at a moment: what its record says, read by presenters and by the payments
// derived from orders (which the customer presenter reads, so this file imports no presenter).
import type {OrderRecord, OrderStatus} from './model.js'

/** The status an order has at `now`: a pending order with a reached `paid_at` is paid. */
export function orderStatus(o: OrderRecord, now: number): OrderStatus {
  return o.status === 'pending' && o.paid_at !== null && Date.parse(o.paid_at) <= now ? 'paid' : o.status
}

export function orderAmounts(o: OrderRecord) {
  const net = o.subtotal_amount - o.discount_amount
  const total = net + o.tax_amount
  return {
    subtotal_amount: o.subtotal_amount,
    discount_amount: o.discount_amount,
    net_amount: net,
    tax_amount: o.tax_amount,
    total_amount: total,
    applied_balance_amount: o.applied_balance_amount,
    due_amount: Math.max(0, total + o.applied_balance_amount),
    refunded_amount: o.refunded_amount,
    refunded_tax_amount: o.refunded_tax_amount,
    refundable_amount: Math.max(0, net + o.applied_balance_amount - o.refunded_amount),
    refundable_tax_amount: Math.max(0, o.tax_amount - o.refunded_tax_amount),
  }
}
