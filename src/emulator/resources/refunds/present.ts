// Refunds of orders: stored records -> wire shapes (server/polar/refund/schemas.py).
import {type View, orgId} from '../../core/present.js'
import type {RefundRecord} from './model.js'
import type {Presented} from '../../core/present.js'

export function refund(v: View, r: RefundRecord): Presented<'Refund'> {
  return {
    id: r.id,
    created_at: r.created_at,
    modified_at: r.modified_at,
    metadata: r.metadata,
    status: r.status,
    reason: r.reason,
    amount: r.amount,
    tax_amount: r.tax_amount,
    currency: r.currency,
    organization_id: orgId(v),
    order_id: r.order_id,
    subscription_id: r.subscription_id,
    customer_id: r.customer_id,
    revoke_benefits: r.revoke_benefits,
    dispute: null,
  }
}
