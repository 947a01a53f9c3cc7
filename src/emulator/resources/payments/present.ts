// Payments: the card payment of a paid order -> the API's wire shape (server/polar/payment/schemas.py).
import {type View, orgId} from '../../core/present.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts} from '../orders/present.js'
import {paymentIdOf} from './derive.js'
import type {Presented} from '../../core/present.js'

const TRIGGERS: Record<string, string> = {
  purchase: 'purchase',
  subscription_create: 'purchase',
  subscription_cycle: 'subscription_cycle',
  subscription_update: 'purchase',
}

export function payment(v: View, o: OrderRecord): Presented<'Payment'> {
  return {
    created_at: o.paid_at ?? o.created_at,
    modified_at: null,
    id: paymentIdOf(o.id),
    processor: 'stripe',
    status: 'succeeded',
    amount: orderAmounts(o).total_amount,
    currency: o.currency,
    method: 'card',
    trigger: TRIGGERS[o.billing_reason] ?? null,
    decline_reason: null,
    decline_message: null,
    organization_id: orgId(v),
    checkout_id: o.checkout_id,
    order_id: o.id,
    processor_metadata: {},
    method_metadata: {brand: 'visa', last4: '4242'},
  }
}
