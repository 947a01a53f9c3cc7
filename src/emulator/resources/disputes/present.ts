// Disputes: stored records -> the API's wire shape (server/polar/dispute/schemas.py).
import {type View, embedded} from '../../core/present.js'
import {customer} from '../customers/present.js'
import {paymentIdOf} from '../payments/derive.js'
import type {DisputeRecord} from './model.js'
import type {Presented} from '../../core/present.js'

const RESOLVED = new Set(['lost', 'won'])
const CLOSED = new Set(['prevented', 'lost', 'won'])

export function dispute(v: View, d: DisputeRecord): Presented<'Dispute'> {
  const c = v.store.get('customers', d.customer_id)
  return {
    created_at: d.created_at,
    modified_at: d.modified_at,
    id: d.id,
    status: d.status,
    resolved: RESOLVED.has(d.status),
    closed: CLOSED.has(d.status),
    amount: d.amount,
    tax_amount: d.tax_amount,
    currency: d.currency,
    reason: d.reason,
    evidence_due_by: d.evidence_due_by,
    past_due: d.status === 'needs_response' && d.evidence_due_by !== null && Date.parse(d.evidence_due_by) < v.now,
    order_id: d.order_id,
    payment_id: paymentIdOf(d.order_id),
    customer: embedded(c ? customer(v, c) : null),
    case_id: null,
  }
}
