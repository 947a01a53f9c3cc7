// Opening a dispute: a customer disputes the whole paid amount of an order (the seed's dispute, and the
// control surface's action). It awaits the organization's response for 7 days.
import {uuid} from '../../core/ids.js'
import {DAY, iso} from '../../core/seeding.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts} from '../orders/present.js'
import type {DisputeRecord} from './model.js'

export function newDispute(order: OrderRecord, now: number, id = uuid(), reason = 'fraudulent'): DisputeRecord {
  const amounts = orderAmounts(order)
  return {
    id,
    created_at: iso(now),
    modified_at: null,
    status: 'needs_response',
    amount: amounts.net_amount,
    tax_amount: amounts.tax_amount,
    currency: order.currency,
    reason,
    evidence_due_by: iso(now + 7 * DAY),
    order_id: order.id,
    customer_id: order.customer_id,
  }
}
