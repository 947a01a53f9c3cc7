// Prices in the catalog file, in major units with their currency (`amount: "29.00"`, `currency: usd`),
// and as the service takes and returns them (integer minor units; a metered price's unit amount is a
// decimal of minor units). A metered price names its meter by key. The service never edits a price:
// a different price is a new one, and the old one is archived.
import {z} from 'zod'

import {isCurrency, type Currency} from '../../../client/currencies.js'
import type {PriceCreate} from '../../../client/resources/products.js'
import {toMinor} from '../../../cli/input/money.js'
import {minorDigits} from '../../../cli/output/format.js'
import {usageError} from '../../../client/till-error.js'
import {KEY_RE, KEY_RULE} from '../keys.js'
import type {Issue} from './kind.js'
import {decimalShift, majorText, moneyText} from './values.js'

const money = z.union([z.string(), z.number().nonnegative()]).transform(String)
const currency = z.string().transform((c) => c.toLowerCase())

export const priceSchema = z.discriminatedUnion('type', [
  z.object({type: z.literal('fixed'), amount: money, currency}).strict(),
  z.object({type: z.literal('custom'), minimum: money.optional(), maximum: money.optional(), preset: money.optional(), currency}).strict(),
  z.object({type: z.literal('metered'), meter: z.string().regex(KEY_RE, KEY_RULE), unit_amount: money, cap: money.optional(), currency}).strict(),
])

export type PriceEntry = z.output<typeof priceSchema>

/** The service's default minimum of a pay-what-you-want price (server/polar/product/schemas.py). */
const DEFAULT_MINIMUM = 50

/** A price in minor units: what is compared and sent. */
export type Price =
  | {type: 'fixed'; amount: number; currency: string}
  | {type: 'custom'; minimum: number; maximum: number | null; preset: number | null; currency: string}
  /** `unit` is a decimal of minor units per unit, as the service writes it (no trailing zeros). */
  | {type: 'metered'; meter: string; unit: string; cap: number | null; currency: string}

/** The most decimals the service keeps in a metered price's unit amount (of minor units). */
const UNIT_DECIMALS = 12

/** The price in minor units; throws (a usage error naming the field) on a bad amount. */
export function toPrice(entry: PriceEntry): Price {
  const c = entry.currency
  if (entry.type === 'fixed') return {type: 'fixed', amount: toMinor(entry.amount, c, 'amount'), currency: c}
  if (entry.type === 'metered') {
    const unit = decimalShift(entry.unit_amount, minorDigits(c))
    if (unit === undefined || Number(unit) <= 0) throw usageError(`unit_amount must be a positive amount like 0.01, not "${entry.unit_amount}"`)
    if ((unit.split('.')[1] ?? '').length > UNIT_DECIMALS)
      throw usageError(`unit_amount ${entry.unit_amount} has more decimals than the service keeps (${UNIT_DECIMALS} of a minor unit)`)
    return {type: 'metered', meter: entry.meter, unit, cap: entry.cap === undefined ? null : toMinor(entry.cap, c, 'cap'), currency: c}
  }
  const opt = (value: string | undefined, name: string) => (value === undefined ? null : toMinor(value, c, name))
  return {
    type: 'custom',
    minimum: opt(entry.minimum, 'minimum') ?? DEFAULT_MINIMUM,
    maximum: opt(entry.maximum, 'maximum'),
    preset: opt(entry.preset, 'preset'),
    currency: c,
  }
}

/** Money and currency of each price, and the mixes the service allows (one fixed, or one custom alone). */
export function checkPrices(entries: PriceEntry[]): Issue[] {
  const issues: Issue[] = []
  const prices: Price[] = []
  entries.forEach((entry, i) => {
    if (!isCurrency(entry.currency)) {
      issues.push({path: ['prices', i, 'currency'], message: `"${entry.currency}" is not a currency the service takes (e.g. usd, eur)`})
      return
    }
    try {
      const price = toPrice(entry)
      if (price.type === 'custom' && price.maximum !== null && price.maximum < price.minimum)
        issues.push({path: ['prices', i, 'maximum'], message: 'the maximum is below the minimum'})
      else if (price.type === 'custom' && price.preset !== null && (price.preset < price.minimum || (price.maximum !== null && price.preset > price.maximum))) {
        issues.push({path: ['prices', i, 'preset'], message: 'the preset amount must be between the minimum and the maximum'})
      } else prices.push(price)
    } catch (error) {
      const field = /^(\w+)/.exec((error as Error).message)?.[1] ?? 'amount'
      issues.push({path: ['prices', i, field], message: (error as Error).message})
    }
  })
  const fixed = entries.filter((e) => e.type === 'fixed').length
  const custom = entries.filter((e) => e.type === 'custom').length
  if (fixed > 1 || custom > 1 || (fixed > 0 && custom > 0))
    issues.push({path: ['prices'], message: 'a product has one fixed price, or one custom (pay what you want) price alone'})
  if (new Set(prices.map((p) => p.currency)).size > 1) issues.push({path: ['prices'], message: 'all prices of a product use the same currency'})
  return issues
}

/** An active price of the service as a file entry (a legacy `free` price is a fixed price of 0); `meterKey` names a metered price's meter. */
export function priceEntry(raw: Record<string, unknown>, meterKey: (id: string) => string = (id) => id): PriceEntry {
  const c = String(raw.price_currency ?? 'usd')
  if (raw.amount_type === 'metered_unit') {
    // a unit amount that is no decimal is kept as the service wrote it, for the file's check to name
    const unit = String(raw.unit_amount)
    const entry: PriceEntry = {type: 'metered', meter: meterKey(String(raw.meter_id)), unit_amount: decimalShift(unit, -minorDigits(c)) ?? unit, currency: c}
    if (typeof raw.cap_amount === 'number') entry.cap = majorText(raw.cap_amount, c)
    return entry
  }
  if (raw.amount_type === 'custom') {
    const opt = (v: unknown) => (typeof v === 'number' ? majorText(v, c) : undefined)
    const entry: PriceEntry = {type: 'custom', minimum: majorText(Number(raw.minimum_amount ?? 0), c), currency: c}
    if (opt(raw.maximum_amount) !== undefined) entry.maximum = opt(raw.maximum_amount)
    if (opt(raw.preset_amount) !== undefined) entry.preset = opt(raw.preset_amount)
    return entry
  }
  return {type: 'fixed', amount: majorText(Number(raw.price_amount ?? 0), c), currency: c}
}

/** A price till can read, in minor units; undefined for one it cannot (a negative amount, a signed unit amount). */
export function readPrice(entry: PriceEntry): Price | undefined {
  try {
    return toPrice(entry)
  } catch {
    return undefined
  }
}

/**
 * A price of the service as the pulled file writes it: normalized when till can read it, and as the service
 * has it otherwise (a negative amount, a signed unit amount), so the file keeps it and its check names it.
 */
export function pulledPrice(raw: Record<string, unknown>, meterKey?: (id: string) => string): PriceEntry {
  const entry = priceEntry(raw, meterKey)
  const price = readPrice(entry)
  return price === undefined ? entry : entryOf(price)
}

/** A price in minor units as a file entry. */
export function entryOf(p: Price): PriceEntry {
  if (p.type === 'fixed') return {type: 'fixed', amount: majorText(p.amount, p.currency), currency: p.currency}
  if (p.type === 'metered') {
    const entry: PriceEntry = {type: 'metered', meter: p.meter, unit_amount: decimalShift(p.unit, -minorDigits(p.currency))!, currency: p.currency}
    if (p.cap !== null) entry.cap = majorText(p.cap, p.currency)
    return entry
  }
  const entry: PriceEntry = {type: 'custom', minimum: majorText(p.minimum, p.currency), currency: p.currency}
  if (p.maximum !== null) entry.maximum = majorText(p.maximum, p.currency)
  if (p.preset !== null) entry.preset = majorText(p.preset, p.currency)
  return entry
}

/** A price as the service creates it; `meterId` is the target's id of a metered price's meter. */
export function priceCreate(p: Price, meterId: (key: string) => string = (key) => key): PriceCreate {
  const currency = p.currency as Currency // checked by the file's schema (isCurrency)
  if (p.type === 'fixed') return {amount_type: 'fixed', price_amount: p.amount, price_currency: currency}
  if (p.type === 'metered') return {amount_type: 'metered_unit', meter_id: meterId(p.meter), unit_amount: p.unit, cap_amount: p.cap, price_currency: currency}
  const body: PriceCreate & {amount_type: 'custom'} = {amount_type: 'custom', minimum_amount: p.minimum, price_currency: currency}
  if (p.maximum !== null) body.maximum_amount = p.maximum
  if (p.preset !== null) body.preset_amount = p.preset
  return body
}

/** "29.00 USD", or "pay what you want from 1.00 USD (preset 5.00 USD, up to 1000.00 USD)". */
export function priceText(p: Price): string {
  if (p.type === 'fixed') return p.amount === 0 ? `free (0 ${p.currency.toUpperCase()})` : moneyText(p.amount, p.currency)
  if (p.type === 'metered') {
    const unit = `${decimalShift(p.unit, -minorDigits(p.currency))} ${p.currency.toUpperCase()} per unit of meter ${p.meter}`
    return p.cap === null ? unit : `${unit} (up to ${moneyText(p.cap, p.currency)} a period)`
  }
  const extra = [
    p.preset !== null ? `preset ${moneyText(p.preset, p.currency)}` : '',
    p.maximum !== null ? `up to ${moneyText(p.maximum, p.currency)}` : '',
  ].filter(Boolean)
  return `pay what you want from ${moneyText(p.minimum, p.currency)}${extra.length ? ` (${extra.join(', ')})` : ''}`
}

export const pricesText = (prices: Price[]) => prices.map(priceText).join(' + ')
