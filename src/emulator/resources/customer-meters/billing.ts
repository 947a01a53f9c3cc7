// Usage billed at a subscription's renewal, as the service bills its metered prices: for each metered
// price of the subscription's product, the units of the period (those the customer meter counts since its
// last reset: consumed minus credited, never below zero) times the price's unit amount, rounded half up
// to a cent and capped at `cap_amount` when set; one order line each, labelled as the service labels it.
import type {Store} from '../../core/store.js'
import type {PriceRecord} from '../products/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {customerMeterState} from './state.js'

type MeteredPrice = Extract<PriceRecord, {amount_type: 'metered_unit'}>

export interface UsageLine {
  label: string
  amount: number
  priceId: string
}

/** Cents as the service shows them: `$0.50`, and more decimals when the amount has them (`$0.005`). */
function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: 2, maximumFractionDigits: 12}).format(
    cents / 100,
  )
}

const units = (n: number) => new Intl.NumberFormat('en-US', {maximumFractionDigits: 3}).format(n)

/** The amount and label of `consumed` units at a metered price. */
export function usageAmount(price: MeteredPrice, consumed: number): {amount: number; label: string} {
  const billable = Math.max(0, consumed)
  let label = `(${units(billable)} consumed units) × ${money(Number(price.unit_amount), price.price_currency)}`
  // round half up, on the exact product (unit amounts have up to 12 decimals)
  let amount = Math.floor(Number(price.unit_amount) * billable + 0.5 + 1e-9)
  if (price.cap_amount !== null && amount > price.cap_amount) {
    amount = price.cap_amount
    label += ` — Capped at ${money(price.cap_amount, price.price_currency)}`
  }
  return {amount, label}
}

/** The metered prices the subscription bills: its product's, unless archived before it started. */
export function meteredPrices(store: Store, s: SubscriptionRecord): MeteredPrice[] {
  const product = store.get('products', s.product_id)
  return (product?.prices ?? []).filter((p): p is MeteredPrice => p.amount_type === 'metered_unit' && (!p.is_archived || s.price_ids.includes(p.id)))
}

/** The usage lines of the period now ending. Call before the meters are reset for the next period. */
export function usageLines(store: Store, s: SubscriptionRecord): UsageLine[] {
  const customer = store.get('customers', s.customer_id)
  if (!customer) return []
  return meteredPrices(store, s).flatMap((price) => {
    const meter = store.data.meters.find((m) => m.id === price.meter_id)
    if (!meter) return []
    const state = customerMeterState({store}, customer, meter)
    const {amount, label} = usageAmount(price, state ? state.consumed_units - state.credited_units : 0)
    return [{label, amount, priceId: price.id}]
  })
}
