// Payments (server/polar/payment, read-only) and customers' saved payment methods
// (server/polar/customer: /customers/{id}/payment-methods), both derived from paid orders (derive.ts).
import type {Ctx, Router} from '../../core/http.js'
import {byField} from '../../core/list.js'
import type {View} from '../../core/present.js'
import {found, getRoute, listRoute, organizationScope} from '../../core/toolkit.js'
import {byExternalId, byId, type Resolve} from '../customers/routes.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts} from '../orders/present.js'
import {hasPayment, paymentIdOf, paymentMethodIdOf} from './derive.js'
import {payment} from './present.js'

const paymentsOf = (ctx: Ctx): OrderRecord[] => ctx.store.all('orders').filter((o) => hasPayment(ctx, o))

const findPayment = (ctx: Ctx, id: string): OrderRecord => found(paymentsOf(ctx).find((o) => paymentIdOf(o.id) === id))

/** A paying customer's card (the one of their first payment); none for a customer who never paid. */
type PaymentMethod = ReturnType<typeof paymentMethods>[number]

function paymentMethods(ctx: Ctx, resolve: Resolve) {
  const customer = resolve(ctx)
  const paid = ctx.store.all('orders').filter((o) => o.customer_id === customer.id && hasPayment(ctx, o))
  const first = paid.reduce<OrderRecord | null>((a, o) => (a === null || o.created_at < a.created_at ? o : a), null)
  const methods = first
    ? [
        {
          id: paymentMethodIdOf(customer.id),
          created_at: first.paid_at ?? first.created_at,
          modified_at: null,
          processor: 'stripe',
          customer_id: customer.id,
          type: 'card',
          is_default: true,
          method_metadata: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, wallet: null},
        },
      ]
    : []
  return methods
}

export function register(r: Router): void {
  listRoute(r, 'payments:list', paymentsOf, {
    present: payment,
    filters: {
      organization_id: organizationScope,
      checkout_id: byField('uuid', (o: OrderRecord) => o.checkout_id),
      order_id: byField('uuid', (o: OrderRecord) => o.id),
      customer_id: byField('uuid', (o: OrderRecord) => o.customer_id),
      status: byField(['pending', 'succeeded', 'failed'], () => 'succeeded'),
      method: byField('string', () => 'card'),
      customer_email: byField('string', (o: OrderRecord, ctx) => ctx.store.get('customers', o.customer_id)?.email ?? null),
    },
    sorts: {created_at: (o) => o.paid_at ?? o.created_at, status: () => 'succeeded', amount: (o) => orderAmounts(o).total_amount, method: () => 'card'},
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'payments:get', findPayment, payment)

  const methods = {present: (_view: View, m: PaymentMethod) => m, sorts: {}, defaultSort: ['-created_at']} as const
  listRoute(r, 'customers:list_payment_methods', (ctx: Ctx) => paymentMethods(ctx, byId), methods)
  listRoute(r, 'customers:list_payment_methods_external', (ctx: Ctx) => paymentMethods(ctx, byExternalId), methods)
}
