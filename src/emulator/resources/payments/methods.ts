// A customer's saved payment methods: the card of their first payment (derived from their orders, derive.ts)
// and the cards added in the portal, less the deleted ones. The default is the one the customer chose, else
// the first payment's card, else the newest.
import type {Ctx} from '../../core/http.js'
import type {View} from '../../core/present.js'
import {oldestFirst} from '../../core/seeding.js'
import type {CustomerRecord} from '../customers/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {CardRecord, PaymentMethodRecord} from './model.js'
import {hasPayment, paymentMethodIdOf} from './derive.js'

/** The card every derived method is (the emulator's payments are all made with it). */
export const DERIVED_CARD: CardRecord = {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030}

/** The card of the customer's first payment, as a record (not stored unless deleted). */
function derivedMethod(v: Pick<View, 'store' | 'now'>, customerId: string): PaymentMethodRecord | null {
  // (`where`: an index by customer, kept as orders are added; the walk of a clock presents customers by thousands)
  const paid = v.store.where('orders', 'customer_id', customerId).filter((o) => hasPayment(v, o))
  const first = paid.reduce<OrderRecord | null>((a, o) => (a === null || o.created_at < a.created_at ? o : a), null)
  if (!first) return null
  return {
    id: paymentMethodIdOf(customerId),
    created_at: first.paid_at ?? first.created_at,
    modified_at: null,
    customer_id: customerId,
    card: DERIVED_CARD,
    deleted_at: null,
  }
}

/** The customer's live payment methods, oldest first. */
export function methodsOf(v: Pick<View, 'store' | 'now'>, customerId: string): PaymentMethodRecord[] {
  const stored = v.store.where('payment_methods', 'customer_id', customerId)
  const derived = derivedMethod(v, customerId)
  const methods = derived && !stored.some((m) => m.id === derived.id) ? [derived] : []
  methods.push(...stored.filter((m) => m.deleted_at === null))
  return methods.sort(oldestFirst)
}

/**
 * The customer's default method, as `default_payment_method_id` and the list's `is_default` both say: the
 * chosen one while it lives; before any choice, the first payment's card (the checkout saved it as the
 * default); none once the default was deleted (payment_method/repository.py clears it).
 */
export function defaultMethodId(v: Pick<View, 'store' | 'now'>, customer: Pick<CustomerRecord, 'id' | 'default_payment_method_id'>): string | null {
  const id = customer.default_payment_method_id === undefined ? paymentMethodIdOf(customer.id) : customer.default_payment_method_id
  return id !== null && methodsOf(v, customer.id).some((m) => m.id === id) ? id : null
}

/** The method the customer's subscriptions bill: the default, else the first payment's card, else the newest. */
export function billedMethodId(v: Pick<View, 'store' | 'now'>, customer: Pick<CustomerRecord, 'id' | 'default_payment_method_id'>): string | null {
  const methods = methodsOf(v, customer.id)
  const derived = paymentMethodIdOf(customer.id)
  return defaultMethodId(v, customer) ?? (methods.find((m) => m.id === derived) ?? methods.at(-1))?.id ?? null
}

/** PaymentMethodCard: one method as the service shows it (CustomerPaymentMethod). */
export function presentMethod(m: PaymentMethodRecord) {
  return {
    id: m.id,
    created_at: m.created_at,
    modified_at: m.modified_at,
    processor: 'stripe' as const,
    customer_id: m.customer_id,
    type: 'card' as const,
    method_metadata: {...m.card, wallet: null},
  }
}

/** The core list's item (PaymentMethodCard with `is_default`). */
export const presentWithDefault = (ctx: Ctx, m: PaymentMethodRecord) => {
  const customer = ctx.store.get('customers', m.customer_id)
  return {...presentMethod(m), is_default: customer ? defaultMethodId(ctx, customer) === m.id : false}
}
