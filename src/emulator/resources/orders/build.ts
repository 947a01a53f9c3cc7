// Creating orders (checkout confirmations, subscription cycles, seed data) with amounts that add up:
// net = subtotal - discount, total = net + tax (server/polar/order/schemas.py).
import {uuid, type Random} from '../../core/ids.js'
import type {Address, EnvData, Metadata} from '../../core/model.js'
import type {OrderRecord, OrderStatus} from './model.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import {startingAmount} from '../products/amounts.js'

/** Simple VAT/sales-tax table by billing country, in basis points. */
const TAX_BPS: Record<string, number> = {DE: 1900, FR: 2000, GB: 2000, SE: 2500, NL: 2100, ES: 2100, IT: 2200, US: 0, CA: 500, AU: 1000}

export function taxRate(address: Address | null | undefined): number {
  return address ? (TAX_BPS[address.country] ?? 0) : 0
}

export function invoiceNumber(data: EnvData): string {
  data.invoice_counter++
  const prefix = data.organization.slug
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 8)
    .toUpperCase()
  return `${prefix}-${String(data.invoice_counter).padStart(4, '0')}`
}

export interface NewOrder {
  now: number
  customerId: string
  product: ProductRecord
  price: PriceRecord
  /** Amount before discount and tax; defaults to the price's amount (custom: minimum or preset). */
  amount?: number
  discountAmount?: number
  billingReason?: OrderRecord['billing_reason']
  subscriptionId?: string | null
  checkoutId?: string | null
  billingName?: string | null
  billingAddress?: Address | null
  metadata?: Metadata
  /** Defaults to `pending`, paid `paymentDelayMs` later. */
  status?: OrderStatus
  paymentDelayMs?: number
  random?: Random
  /** The order's lines when not the one line of `price` (a renewal with usage); the subtotal is their sum. */
  lines?: Array<{label: string; amount: number; priceId: string}>
  /** False: no invoice number yet (a draft order gets one when it is finalized). */
  invoiceNumber?: false
  /** The subscription's period the lines cover (default: the subscription's current one, looked up). */
  period?: {start: string; end: string}
}

export function priceAmount(price: PriceRecord): number {
  return startingAmount(price)
}

/** Builds an order row (not yet inserted); takes the next invoice number from `data`. */
export function buildOrder(data: EnvData, o: NewOrder): OrderRecord {
  // a subscription's lines cover its billing period (the one the order opens or changes)
  const subscription = o.period || !o.subscriptionId ? undefined : data.subscriptions?.find((x) => x.id === o.subscriptionId)
  const period = o.period
    ? {start_timestamp: o.period.start, end_timestamp: o.period.end}
    : {start_timestamp: subscription?.current_period_start ?? null, end_timestamp: subscription?.current_period_end ?? null}
  const created = new Date(o.now).toISOString()
  const subtotal = o.lines ? o.lines.reduce((sum, l) => sum + l.amount, 0) : (o.amount ?? priceAmount(o.price))
  const discount = Math.min(o.discountAmount ?? 0, subtotal)
  const tax = Math.round(((subtotal - discount) * taxRate(o.billingAddress)) / 10_000)
  const status = o.status ?? 'pending'
  const label = o.product.recurring_interval
    ? `${o.product.name} (every ${o.product.recurring_interval_count ?? 1} ${o.product.recurring_interval})`
    : o.product.name
  return {
    id: uuid(o.random),
    created_at: created,
    modified_at: null,
    status,
    paid_at: status === 'pending' ? new Date(o.now + (o.paymentDelayMs ?? 2000)).toISOString() : status === 'draft' || status === 'void' ? null : created,
    billing_reason: o.billingReason ?? (o.product.recurring_interval ? 'subscription_create' : 'purchase'),
    currency: o.price.price_currency,
    subtotal_amount: subtotal,
    discount_amount: discount,
    tax_amount: tax,
    applied_balance_amount: 0,
    refunded_amount: 0,
    refunded_tax_amount: 0,
    billing_name: o.billingName ?? null,
    billing_address: o.billingAddress ?? null,
    invoice_number: o.invoiceNumber === false ? null : invoiceNumber(data),
    invoice_requested_at: null,
    invoice_ready_at: null,
    customer_id: o.customerId,
    product_id: o.product.id,
    discount_id: null,
    subscription_id: o.subscriptionId ?? null,
    checkout_id: o.checkoutId ?? null,
    metadata: o.metadata ?? {},
    items: (o.lines ?? [{label, amount: subtotal, priceId: o.price.id}]).map((line, i, lines) => ({
      id: uuid(o.random),
      created_at: created,
      modified_at: null,
      label: line.label,
      amount: line.amount,
      tax_amount: lineTax(tax, subtotal, lines, i),
      proration: false,
      product_price_id: line.priceId,
      ...period,
    })),
  }
}

/** A line's share of the order's tax, by amount; the last line takes what rounding left. */
function lineTax(tax: number, subtotal: number, lines: Array<{amount: number}>, i: number): number {
  if (lines.length === 1) return tax
  const share = (l: {amount: number}) => (subtotal > 0 ? Math.round((tax * l.amount) / subtotal) : 0)
  return i < lines.length - 1 ? share(lines[i]!) : tax - lines.slice(0, -1).reduce((sum, l) => sum + share(l), 0)
}
