// The portal's order payments (server/polar/customer_portal endpoints/order.py, order service's
// process_retry_payment): the receipt, the payment status, and the customer's retry of a failed renewal
// payment, with a saved payment method or a new card's confirmation token (tokens as in payment-methods.ts).
import {z} from '../../core/zod.js'

import {domainError} from '../../core/errors.js'
import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {pathId, routeOf} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts, orderStatus} from '../orders/present.js'
import {getReceipt} from '../orders/receipt.js'
import {findOrder} from '../orders/routes.js'
import {methodsOf} from '../payments/methods.js'
import {subscription as presentSubscription} from '../subscriptions/present.js'
import {me} from './me.js'
import {tokenOutcome} from './payment-methods.js'

/** The service's limit of retries a customer starts for one order (CUSTOMER_RETRY_MAX_ATTEMPTS). */
export const CUSTOMER_RETRY_MAX_ATTEMPTS = 5

const DECLINED = 'Your card was declined.'

const confirmPayment = z.object({
  confirmation_token_id: z.string().nullish(),
  payment_method_id: z.uuid().nullish(),
  payment_processor: z.literal('stripe').default('stripe'),
})

/** A renewal whose payment failed: pending, never to be paid by itself (the control API's fail-payment). */
const paymentFailed = (ctx: Ctx, o: OrderRecord) => orderStatus(o, ctx.now) === 'pending' && o.paid_at === null && o.subscription_id !== null

/** CustomerOrderPaymentStatus: the latest payment's status and decline message, or `no_payment`. */
function paymentStatus(ctx: Ctx, o: OrderRecord) {
  const status = orderStatus(o, ctx.now)
  if (orderAmounts(o).total_amount === 0 || status === 'draft' || status === 'void') return {status: 'no_payment', error: null}
  if (paymentFailed(ctx, o)) return {status: 'failed', error: DECLINED}
  if (status === 'pending') return {status: 'pending', error: null}
  return {status: 'succeeded', error: null}
}

const notEligible = (id: string) => domainError(422, 'OrderNotEligibleForRetry', `Order ${id} is not eligible for payment retry.`)
// Not in the document (its 422 names OrderNotEligibleForRetry only): a departure listed in core/contract-known.ts.
const retryInvalid = (detail: string) => domainError(422, 'PaymentRetryValidationError', detail)

function confirmRetry(ctx: Ctx) {
  const order = findOrder(ctx, pathId(ctx), me(ctx))
  const input = parse(confirmPayment, ctx.body)
  if (!paymentFailed(ctx, order)) throw notEligible(order.id)
  const token = input.confirmation_token_id ?? null
  const methodId = input.payment_method_id ?? null
  if (token === null && methodId === null) throw retryInvalid('Either confirmation_token_id or payment_method_id must be provided')
  if (token !== null && methodId !== null) throw retryInvalid('Only one of confirmation_token_id or payment_method_id can be provided')
  if ((order.customer_retries ?? 0) >= CUSTOMER_RETRY_MAX_ATTEMPTS) {
    throw domainError(429, 'ManualRetryLimitExceeded', `Maximum number of manual payment retry attempts has been reached for order ${order.id}.`)
  }
  if (methodId !== null && !methodsOf(ctx, order.customer_id).some((m) => m.id === methodId)) throw retryInvalid('Payment method does not belong to customer')
  const outcome = token === null ? null : tokenOutcome(token)
  const iso = new Date(ctx.now).toISOString()
  const result = ctx.store.write(() => {
    const o = findOrder(ctx, order.id)
    o.customer_retries = (o.customer_retries ?? 0) + 1
    o.modified_at = iso
    if (outcome?.declined) return {status: 'failed', client_secret: null, error: DECLINED}
    if (outcome?.action)
      return {status: 'requires_action', client_secret: `pi_${o.id.replaceAll('-', '').slice(0, 24)}_secret_${o.customer_retries}`, error: null}
    o.paid_at = iso
    const s = o.subscription_id ? ctx.store.get('subscriptions', o.subscription_id) : undefined
    const reactivated = s?.status === 'past_due' ? s : undefined
    if (reactivated) {
      reactivated.status = 'active'
      reactivated.modified_at = iso
    }
    return {status: 'succeeded', client_secret: null, error: null, reactivated}
  })
  const {reactivated, ...answer} = result as typeof result & {reactivated?: Parameters<typeof presentSubscription>[1]}
  // The sweep raises order.updated and order.paid (and grants the benefits) as for any payment.
  ctx.env.settle()
  if (reactivated) {
    const body = presentSubscription(ctx.view, reactivated)
    emit(ctx.env, 'subscription.updated', body)
    emit(ctx.env, 'subscription.active', body)
  }
  return ok(answer)
}

export function registerOrderPayments(r: Router): void {
  r.get(routeOf('customer_portal:orders:receipt').path, 'customer', (ctx) => getReceipt(ctx, findOrder(ctx, pathId(ctx), me(ctx))))
  r.get(routeOf('customer_portal:orders:get_payment_status').path, 'customer', (ctx) => ok(paymentStatus(ctx, findOrder(ctx, pathId(ctx), me(ctx)))))
  r.post(routeOf('customer_portal:orders:confirm_retry_payment').path, 'customer', confirmRetry)
}
