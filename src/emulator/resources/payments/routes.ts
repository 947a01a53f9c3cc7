// Payments (server/polar/payment, read-only) and customers' saved payment methods
// (server/polar/customer: /customers/{id}/payment-methods), both derived from paid orders (derive.ts).
import {notFound} from '../../core/errors.js'
import {ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {byField, listRows} from '../../core/list.js'
import {pathUuid} from '../../core/validate.js'
import {byExternalId, byId, type Resolve} from '../customers/routes.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts} from '../orders/present.js'
import {hasPayment, paymentIdOf, paymentMethodIdOf} from './derive.js'
import {payment} from './present.js'

const paymentsOf = (ctx: Ctx): OrderRecord[] => ctx.store.all('orders').filter((o) => hasPayment(ctx, o))

function findPayment(ctx: Ctx, id: string): OrderRecord {
  const order = paymentsOf(ctx).find((o) => paymentIdOf(o.id) === id)
  if (!order) throw notFound()
  return order
}

/** A paying customer's card (the one of their first payment); none for a customer who never paid. */
function paymentMethods(ctx: Ctx, resolve: Resolve): Reply {
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
  return ok(listRows(methods, ctx.query, {filters: {}, sorts: {created_at: (m) => m.created_at}, defaultSort: ['-created_at']}, (m) => m))
}

export function register(r: Router): void {
  r.get('/payments/', 'organization', (ctx) => {
    const email = (o: OrderRecord) => ctx.store.get('customers', o.customer_id)?.email ?? null
    return ok(
      listRows(
        paymentsOf(ctx),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            checkout_id: byField('uuid', (o: OrderRecord) => o.checkout_id),
            order_id: byField('uuid', (o: OrderRecord) => o.id),
            customer_id: byField('uuid', (o: OrderRecord) => o.customer_id),
            status: byField(['pending', 'succeeded', 'failed'], () => 'succeeded'),
            method: byField('string', () => 'card'),
            customer_email: byField('string', email),
          },
          sorts: {created_at: (o) => o.paid_at ?? o.created_at, status: () => 'succeeded', amount: (o) => orderAmounts(o).total_amount, method: () => 'card'},
          defaultSort: ['-created_at'],
        },
        (o) => payment(ctx.view, o),
      ),
    )
  })

  r.get('/payments/:id', 'organization', (ctx) => ok(payment(ctx.view, findPayment(ctx, pathUuid(ctx.params)))))

  r.get('/customers/:id/payment-methods', 'organization', (ctx) => paymentMethods(ctx, byId))
  r.get('/customers/external/:external_id/payment-methods', 'organization', (ctx) => paymentMethods(ctx, byExternalId))
}
