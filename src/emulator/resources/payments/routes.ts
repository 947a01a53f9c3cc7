// Payments (server/polar/payment, read-only) and customers' saved payment methods
// (server/polar/customer: /customers/{id}/payment-methods): the first payment's card and those added in
// the portal (methods.ts).
import type {Ctx, Router} from '../../core/http.js'
import {byField} from '../../core/list.js'
import type {View} from '../../core/present.js'
import {found, getRoute, listRoute, organizationScope} from '../../core/toolkit.js'
import {byExternalId, byId} from '../customers/routes.js'
import type {OrderRecord} from '../orders/model.js'
import {orderAmounts} from '../orders/present.js'
import {hasPayment, paymentIdOf} from './derive.js'
import {methodsOf, presentWithDefault} from './methods.js'
import type {PaymentMethodRecord} from './model.js'
import {payment} from './present.js'

const paymentsOf = (ctx: Ctx): OrderRecord[] => ctx.store.all('orders').filter((o) => hasPayment(ctx, o))

const findPayment = (ctx: Ctx, id: string): OrderRecord => found(paymentsOf(ctx).find((o) => paymentIdOf(o.id) === id))

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

  const methods = {present: (_view: View, m: PaymentMethodRecord, ctx: Ctx) => presentWithDefault(ctx, m), sorts: {}, defaultSort: ['-created_at']} as const
  listRoute(r, 'customers:list_payment_methods', (ctx: Ctx) => methodsOf(ctx, byId(ctx).id), methods)
  listRoute(r, 'customers:list_payment_methods_external', (ctx: Ctx) => methodsOf(ctx, byExternalId(ctx).id), methods)
}
