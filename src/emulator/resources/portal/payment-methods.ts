// The customer's saved payment methods in the portal (server/polar/customer_portal: customers endpoints
// and service): list, add with a confirmation token, confirm a setup that needed the customer's action,
// delete. The emulator has no card processor: a confirmation token's id decides what happens to it,
// as the processor's test tokens do.
//   an id with `declined`                        the card is declined: 400 PaymentMethodSetupFailed
//   an id with `3ds`, `threeDSecure`, `authentication`  the setup needs the customer's action: `requires_action`
//                                                 with a client secret; confirm it with its setup intent id
//   any other id                                 a Visa ending 4242 (`mastercard` 4444, `amex` 8431)
import {z} from '../../core/zod.js'

import {domainError, ruleValidation} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {token, uuid} from '../../core/ids.js'
import {listRoute, pathId, routeOf} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {emitCustomerChange, findCustomer} from '../customers/routes.js'
import {billedMethodId, defaultMethodId, methodsOf, presentMethod} from '../payments/methods.js'
import type {CardRecord, PaymentMethodRecord} from '../payments/model.js'
import {me} from './me.js'

const methodCreate = z.object({confirmation_token_id: z.string(), set_default: z.boolean(), return_url: z.string()})
const methodConfirm = z.object({setup_intent_id: z.string(), set_default: z.boolean()})

type Outcome = {declined: true} | {declined: false; action: boolean; card: CardRecord}

/** What the processor does with a confirmation token (see the head of this file). */
export function tokenOutcome(id: string): Outcome {
  if (/declined/i.test(id)) return {declined: true}
  const [brand, last4] = /mastercard/i.test(id) ? ['mastercard', '4444'] : /amex/i.test(id) ? ['amex', '8431'] : ['visa', '4242']
  return {declined: false, action: /3ds|threedsecure|authentication/i.test(id), card: {brand, last4, exp_month: 12, exp_year: 2034}}
}

const iso = (ctx: Ctx) => new Date(ctx.now).toISOString()

/** Saves a card for the signed-in customer (inside a store write), the default when asked. */
function saveMethod(ctx: Ctx, customerId: string, card: CardRecord, setDefault: boolean): PaymentMethodRecord {
  const method: PaymentMethodRecord = {id: uuid(), created_at: iso(ctx), modified_at: null, customer_id: customerId, card, deleted_at: null}
  ctx.store.insert('payment_methods', method)
  if (setDefault) {
    const c = findCustomer(ctx, customerId)
    c.default_payment_method_id = method.id
    c.modified_at = iso(ctx)
  }
  return method
}

const succeeded = (m: PaymentMethodRecord) => ok({status: 'succeeded', payment_method: presentMethod(m)}, 201)

const invalidSetupIntent = (id: string) => ruleValidation(['body', 'setup_intent_id'], 'Invalid setup_intent_id.', id)

function addMethod(ctx: Ctx) {
  const input = parse(methodCreate, ctx.body)
  const customerId = me(ctx)
  const outcome = tokenOutcome(input.confirmation_token_id)
  if (outcome.declined) {
    throw domainError(400, 'PaymentMethodSetupFailed', 'Could not add this payment method: Your card was declined. Please try again with a different card.')
  }
  if (outcome.action) {
    const id = `seti_${token('').slice(0, 24)}`
    const intent = ctx.store.write(() => {
      const record = {id, created_at: iso(ctx), customer_id: customerId, card: outcome.card, set_default: input.set_default, payment_method_id: null}
      ctx.store.insert('setup_intents', record)
      return record
    })
    return ok({status: 'requires_action', client_secret: `${intent.id}_secret_${token('').slice(0, 24)}`}, 201)
  }
  const method = ctx.store.write(() => saveMethod(ctx, customerId, outcome.card, input.set_default))
  if (input.set_default) emitCustomerChange(ctx, 'updated', findCustomer(ctx, customerId))
  return succeeded(method)
}

function confirmMethod(ctx: Ctx) {
  const input = parse(methodConfirm, ctx.body)
  const customerId = me(ctx)
  // The service needs the customer known to the processor: one who has paid or begun adding a card.
  const known = methodsOf(ctx, customerId).length > 0 || ctx.store.all('setup_intents').some((s) => s.customer_id === customerId)
  if (!known) throw domainError(403, 'CustomerNotReady', 'Customer is not ready for this operation.')
  const intent = ctx.store.all('setup_intents').find((s) => s.id === input.setup_intent_id)
  if (!intent || intent.customer_id !== customerId) throw invalidSetupIntent(input.setup_intent_id)
  // Confirmed again: the card it saved (the service upserts the processor's method).
  const saved = intent.payment_method_id ? ctx.store.get('payment_methods', intent.payment_method_id) : undefined
  if (saved && saved.deleted_at === null) return succeeded(saved)
  const method = ctx.store.write(() => {
    const m = saveMethod(ctx, customerId, intent.card, input.set_default)
    const stored = ctx.store.all('setup_intents').find((s) => s.id === intent.id)!
    stored.payment_method_id = m.id
    return m
  })
  if (input.set_default) emitCustomerChange(ctx, 'updated', findCustomer(ctx, customerId))
  return succeeded(method)
}

/** A paid subscription that has not ended bills a payment method (the service's `requires_payment_method`). */
const billsAMethod = (ctx: Ctx, customerId: string) =>
  ctx.store.all('subscriptions').some((s) => s.customer_id === customerId && s.ended_at === null && s.amount > 0 && s.status !== 'canceled')

function deleteMethod(ctx: Ctx) {
  const id = pathId(ctx)
  const customerId = me(ctx)
  const methods = methodsOf(ctx, customerId)
  const method = methods.find((m) => m.id === id)
  if (!method) throw domainError(404, 'ResourceNotFound', 'Not found')
  const customer = findCustomer(ctx, customerId)
  // The subscriptions it bills move to another method (the default first); with none left, it stays.
  if (billedMethodId(ctx, customer) === id && methods.length === 1 && billsAMethod(ctx, customerId)) {
    throw domainError(
      400,
      'PaymentMethodInUseByActiveSubscription',
      'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.',
    )
  }
  const wasDefault = defaultMethodId(ctx, customer) === id
  const updated = ctx.store.write(() => {
    const stored = ctx.store.get('payment_methods', id)
    if (stored) stored.deleted_at = iso(ctx)
    else ctx.store.insert('payment_methods', {...method, deleted_at: iso(ctx)})
    const c = findCustomer(ctx, customerId)
    if (wasDefault) c.default_payment_method_id = null
    c.modified_at = iso(ctx)
    return c
  })
  emitCustomerChange(ctx, 'updated', updated)
  return noContent()
}

export function registerPaymentMethods(r: Router): void {
  listRoute(r, 'customer_portal:customers:list_payment_methods', (ctx: Ctx) => methodsOf(ctx, me(ctx)), {
    present: (_view, m) => presentMethod(m),
    sorts: {},
    defaultSort: ['-created_at'],
  })
  r.post(routeOf('customer_portal:customers:add_payment_method').path, 'customer', addMethod)
  r.post(routeOf('customer_portal:customers:confirm_payment_method').path, 'customer', confirmMethod)
  r.delete(routeOf('customer_portal:customers:delete_payment_method').path, 'customer', deleteMethod)
}
