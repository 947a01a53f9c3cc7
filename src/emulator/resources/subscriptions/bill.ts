// A subscription's order and period, as its renewals (cycle.ts) and its updates (update.ts) make them: the
// order billed to the subscription's customer with their billing details, its discount while it lasts.
import type {Ctx} from '../../core/http.js'
import {discountAmount} from '../discounts/apply.js'
import type {DiscountRecord} from '../discounts/model.js'
import {buildOrder, type NewOrder} from '../orders/build.js'
import type {OrderRecord} from '../orders/model.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from './model.js'
import {iso} from './lifecycle.js'
import {addInterval} from './periods.js'

/** The subscription's next period, starting `now`. */
export function startPeriod(s: SubscriptionRecord, now: number): void {
  s.current_period_start = iso(now)
  s.current_period_end = iso(addInterval(now, s.recurring_interval, s.recurring_interval_count))
}

/** An order of the subscription's customer billed now (not yet stored), with `discount` applied. */
export function subscriptionOrder(
  ctx: Ctx,
  s: SubscriptionRecord,
  product: ProductRecord,
  price: PriceRecord,
  amount: number,
  reason: OrderRecord['billing_reason'],
  discount: DiscountRecord | null,
  extra: Pick<NewOrder, 'lines' | 'period'> = {},
): OrderRecord {
  const customer = ctx.store.get('customers', s.customer_id)
  const order = buildOrder(ctx.store.data, {
    now: ctx.now,
    customerId: s.customer_id,
    product,
    price,
    amount,
    discountAmount: discount ? discountAmount(discount, amount, price.price_currency) : 0,
    billingReason: reason,
    subscriptionId: s.id,
    billingName: customer?.billing_name ?? customer?.name ?? null,
    billingAddress: customer?.billing_address ?? null,
    paymentDelayMs: ctx.env.options.paymentDelayMs,
    ...extra,
  })
  order.discount_id = discount?.id ?? null
  return order
}
