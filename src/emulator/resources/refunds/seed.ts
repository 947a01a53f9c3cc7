// Seeded refunds of the refunded and partially refunded orders.
import type {EnvData} from '../../core/model.js'
import {DAY, iso, pick} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'
import type {OrderRecord, OrderStatus} from '../orders/model.js'
import type {RefundRecord} from './model.js'

export function refundOrder(data: EnvData, random: Random, order: OrderRecord, status: OrderStatus, at: number, now: number): void {
  const net = order.subtotal_amount - order.discount_amount
  if (net === 0) {
    order.status = 'paid'
    return
  }
  const amount = status === 'refunded' ? net : Math.max(1, Math.floor(net * (0.3 + random() * 0.3)))
  const tax = Math.round((order.tax_amount * amount) / net)
  order.refunded_amount = amount
  order.refunded_tax_amount = tax
  const when = Math.min(now - 1000, at + 2 * DAY)
  const refund: RefundRecord = {
    id: uuid(random),
    created_at: iso(when),
    modified_at: null,
    metadata: {},
    status: 'succeeded',
    reason: pick(random, ['customer_request', 'duplicate', 'service_disruption', 'satisfaction_guarantee']),
    comment: null,
    amount,
    tax_amount: tax,
    currency: order.currency,
    order_id: order.id,
    subscription_id: order.subscription_id,
    customer_id: order.customer_id,
    revoke_benefits: false,
  }
  order.modified_at = refund.created_at
  data.refunds.push(refund)
}
