// till shows the current fields only: the API still sends deprecated ones beside their replacements,
// and they are dropped from what commands print (`till api` prints responses as they are).
type Item = Record<string, unknown>

const DEPRECATED: Record<string, readonly string[]> = {
  orders: ['amount', 'from_balance_amount', 'product_price_id', 'product_price', 'user_id', 'user'],
  subscriptions: ['price_id', 'price', 'user_id', 'user'],
  discounts: ['amount', 'currency'],
  checkouts: ['subtotal_amount', 'customer_external_id', 'customer_billing_address_fields', 'product_price_id', 'product_price'],
}

/** A non-legacy price's hidden `type` and `recurring_interval` (the product says whether it recurs). */
function currentPrice(price: unknown): unknown {
  if (!price || typeof price !== 'object' || (price as Item).legacy === true) return price
  const {type: _type, recurring_interval: _interval, ...rest} = price as Item
  return rest
}

function currentPrices(prices: unknown): unknown {
  return Array.isArray(prices) ? prices.map(currentPrice) : prices
}

/** `item` without the deprecated fields of `resource` (a shallow copy; other values untouched). */
export function withoutDeprecated<T extends object>(resource: string, item: T): T {
  const names = DEPRECATED[resource]
  const row = item as Item
  const hasPrices = Array.isArray(row.prices) && resource !== 'checkouts'
  if (!names && !hasPrices) return item
  const copy: Item = {...row}
  for (const name of names ?? []) delete copy[name]
  if (hasPrices) copy.prices = currentPrices(row.prices)
  if (resource === 'checkouts' && Array.isArray(row.products)) {
    copy.products = (row.products as Item[]).map((p) => ({...p, prices: currentPrices(p.prices)}))
  }
  return copy as T
}
