// Input of the catalog commands (products, checkouts, checkout links, benefits): metadata pairs,
// prices, benefit properties, prompt choices and confirmation wording. No oclif here.
import type {ApiClient} from '../../client/client.js'
import type {Item} from '../../client/resources/common.js'
import {getProduct, listProducts, setProductBenefits, updateProduct, type PriceCreate, type ProductUpdate} from '../../client/resources/products.js'
import {usageError} from '../../client/till-error.js'
import {asCurrency, type Currency} from '../../client/currencies.js'
import {mergeMetadata} from '../../cli/input/fields.js'
import {amountFrom, toMinor} from '../../cli/input/money.js'
import {decimalShift, minorDigits} from '../../cli/output/format.js'
import {productPrice, productType} from './columns.js'
import type {Choice} from '../../cli/prompt.js'
import type {Schema} from '../../client/wire/index.js'

type ProductVisibility = Schema<'ProductVisibility'>

// ---- prices ----

export interface PriceFlags {
  price?: string
  'amount-minor'?: number
  free?: boolean
  'pay-what-you-want'?: boolean
  minimum?: string
  maximum?: string
  preset?: string
}

/** A lower-case ISO 4217 code from `--currency`. */
export function currencyCode(text: string): Currency {
  if (!/^[A-Za-z]{3}$/.test(text)) throw usageError(`--currency must be a three-letter code such as usd or eur, not "${text}"`)
  const code = asCurrency(text)
  if (!code) throw usageError(`--currency ${text} is not a currency the service takes`, 'use an ISO 4217 code such as usd, eur, gbp or jpy')
  return code
}

export const hasPriceFlags = (f: PriceFlags) => f.price !== undefined || f['amount-minor'] !== undefined || Boolean(f.free) || Boolean(f['pay-what-you-want'])

/** A fixed price of `minor` units (0 is a free price: the service dropped the separate `free` type). */
/**
 * `METER_ID:UNIT_PRICE[:CAP]` as a metered price, in major units as every money flag and the catalog file
 * (0.005 is half a cent a unit; the cap 100.00 is $100 a period). The service keeps the unit price in minor
 * units with up to 12 decimals.
 */
export function meteredPrice(text: string, currency: Currency): PriceCreate {
  const hint = 'e.g. --metered 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d:0.005 (half a cent a unit) or ...:0.02:100.00 (2 cents a unit, at most $100 a period)'
  const m = /^([0-9a-fA-F-]{32,36}):(\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/.exec(text.trim())
  if (!m) throw usageError(`--metered ${text} is not METER_ID:UNIT_PRICE[:CAP]`, hint)
  const unit = decimalShift(m[2]!, minorDigits(currency))!
  if (Number(unit) <= 0) throw usageError(`--metered ${text}: the unit price must be more than 0`, hint)
  if ((unit.split('.')[1] ?? '').length > 12)
    throw usageError(`--metered ${text}: the unit price has more decimals than the service keeps (12 of a minor unit)`, hint)
  return {
    amount_type: 'metered_unit',
    meter_id: m[1]!.toLowerCase(),
    unit_amount: unit,
    cap_amount: m[3] === undefined ? null : toMinor(m[3], currency, '--metered cap'),
    price_currency: currency,
  }
}

/**
 * A seat-based price from `--seat-tiers`: tiers `MIN-MAX:PRICE` or `MIN+:PRICE` (the last, unlimited), comma
 * separated, each price per seat in major units: `1-5:10.00,6+:8.00`. The service checks that they join up.
 */
export function seatPrice(text: string, currency: Currency, type: 'volume' | 'graduated' = 'volume'): PriceCreate {
  const hint = 'e.g. --seat-tiers 1-5:10.00,6+:8.00 ($10.00 a seat for 1 to 5 seats, $8.00 a seat from the sixth)'
  const tiers = text.split(',').map((part) => {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)|(\+))\s*:\s*(\S+)\s*$/.exec(part)
    if (!m) throw usageError(`--seat-tiers: "${part.trim()}" is not a tier MIN-MAX:PRICE or MIN+:PRICE`, hint)
    const min = Number(m[1])
    if (min < 1) throw usageError(`--seat-tiers: "${part.trim()}" starts below 1 seat`, hint)
    const max = m[3] ? null : Number(m[2])
    if (max !== null && max < min) throw usageError(`--seat-tiers: "${part.trim()}" ends before it starts`, hint)
    return {min_seats: min, max_seats: max, price_per_seat: toMinor(m[4]!, currency, '--seat-tiers price')}
  })
  return {amount_type: 'seat_based', price_currency: currency, seat_tiers: {seat_tier_type: type, tiers}}
}

export const fixedPrice = (minor: number, currency: Currency): PriceCreate => ({amount_type: 'fixed', price_amount: minor, price_currency: currency})

/** The price the flags describe, or undefined when they give none. */
export function priceFrom(f: PriceFlags, currency: Currency): PriceCreate | undefined {
  const fixed = f.price !== undefined || f['amount-minor'] !== undefined
  const kinds = [fixed, f.free, f['pay-what-you-want']].filter(Boolean).length
  if (kinds > 1) throw usageError('give one kind of price: --price (or --amount-minor), --free, or --pay-what-you-want')
  const custom = {'--minimum': f.minimum, '--maximum': f.maximum, '--preset': f.preset}
  const stray = Object.entries(custom).find(([, v]) => v !== undefined)
  if (stray && !f['pay-what-you-want']) throw usageError(`${stray[0]} applies to --pay-what-you-want prices only`)
  if (f.free) return fixedPrice(0, currency)
  if (fixed) return fixedPrice(amountFrom({major: f.price, minor: f['amount-minor']}, currency, {major: '--price', minor: '--amount-minor'})!, currency)
  if (!f['pay-what-you-want']) return undefined
  const price: PriceCreate & {amount_type: 'custom'} = {amount_type: 'custom', price_currency: currency}
  if (f.minimum !== undefined) price.minimum_amount = toMinor(f.minimum, currency, '--minimum')
  if (f.maximum !== undefined) price.maximum_amount = toMinor(f.maximum, currency, '--maximum')
  if (f.preset !== undefined) price.preset_amount = toMinor(f.preset, currency, '--preset')
  return price
}

/** Checks a typed price for the prompt: true, or why not. */
export function priceRule(currency: string): (text: string) => true | string {
  return (text) => {
    try {
      toMinor(text, currency, 'the price')
      return true
    } catch (error) {
      return (error as Error).message
    }
  }
}

// ---- product updates ----

export interface ProductChanges {
  name?: string
  description?: string
  visibility?: ProductVisibility
  metadata?: string[]
  price?: PriceFlags
  /** A new seat-based price: `--seat-tiers` and `--seat-tier-type` (see seatPrice). */
  seats?: {tiers?: string; type?: 'volume' | 'graduated'}
  currency?: string
  addBenefits?: string[]
  removeBenefits?: string[]
}

const activePrice = (product: Item) => (Array.isArray(product.prices) ? (product.prices as Item[]) : []).find((p) => p.is_archived !== true)

/** True when the changes need the product as it is now (to merge metadata, keep the currency, edit benefits). */
const needsCurrent = (c: ProductChanges) =>
  Boolean(
    c.metadata?.length ||
      (((c.price && hasPriceFlags(c.price)) || c.seats?.tiers !== undefined) && !c.currency) ||
      c.addBenefits?.length ||
      c.removeBenefits?.length,
  )

/** Any price input at all, bounds and currency included (so that a stray one is reported, not ignored). */
const anyPriceInput = (c: ProductChanges) =>
  c.currency !== undefined ||
  c.seats?.tiers !== undefined ||
  (c.price !== undefined && (hasPriceFlags(c.price) || [c.price.minimum, c.price.maximum, c.price.preset].some((v) => v !== undefined)))

export const hasProductChanges = (c: ProductChanges) =>
  [c.name, c.description, c.visibility].some((v) => v !== undefined) || needsCurrent(c) || anyPriceInput(c)

/** The PATCH body for `changes`; a new price replaces the active one (the service archives prices left out). */
export function productUpdateBody(changes: ProductChanges, current: Item | undefined): ProductUpdate {
  const body: ProductUpdate = {}
  if (changes.name !== undefined) body.name = changes.name
  if (changes.description !== undefined) body.description = changes.description === '' ? null : changes.description
  if (changes.visibility !== undefined) body.visibility = changes.visibility
  if (changes.metadata?.length) body.metadata = mergeMetadata(current?.metadata, changes.metadata) as Record<string, string>
  if (anyPriceInput(changes)) {
    const currency = changes.currency
      ? currencyCode(changes.currency)
      : (asCurrency(String(activePrice(current ?? {id: ''})?.price_currency ?? 'usd')) ?? 'usd')
    const price = priceFrom(changes.price ?? {}, currency)
    const seats = changes.seats?.tiers === undefined ? undefined : seatPrice(changes.seats.tiers, currency, changes.seats.type)
    if (seats && price && price.amount_type !== 'fixed')
      throw usageError('--seat-tiers goes alone or with a fixed --price', 'drop --free or --pay-what-you-want, e.g. --seat-tiers 1-5:10.00,6+:8.00')
    if (!price && !seats) throw usageError('--currency applies to a new price: add --price, --free, --pay-what-you-want or --seat-tiers')
    body.prices = [...(price ? [price] : []), ...(seats ? [seats] : [])]
  }
  return body
}

/** The product's benefit ids with `add` attached and `remove` detached. */
export function benefitIds(current: Item, add: string[] = [], remove: string[] = []): string[] {
  const ids = (Array.isArray(current.benefits) ? (current.benefits as Item[]) : []).map((b) => b.id)
  return [...new Set([...ids, ...add])].filter((id) => !remove.includes(id))
}

/** Applies `changes` to product `id`: one PATCH for fields and price, one POST for benefits; returns the product. */
export async function applyProductChanges(client: ApiClient, id: string, changes: ProductChanges): Promise<Item> {
  let product = needsCurrent(changes) ? await getProduct(client, id) : undefined
  const body = productUpdateBody(changes, product)
  if (Object.keys(body).length > 0) product = await updateProduct(client, id, body)
  if (changes.addBenefits?.length || changes.removeBenefits?.length) {
    product = await setProductBenefits(client, id, benefitIds(product!, changes.addBenefits, changes.removeBenefits))
  }
  return product!
}

// ---- prompts and confirmations ----

/** Products still sold, as prompt choices: `Pro Plan · $29.00 · recurring (monthly)`. */
export async function productChoices(client: ApiClient): Promise<Choice[]> {
  const choices: Choice[] = []
  for await (const p of listProducts(client, {archived: false}, {limit: 100, maxItems: 100})) {
    choices.push({name: `${String(p.name)} · ${productPrice(p)} · ${productType(p)}`, value: p.id, description: p.id})
  }
  return choices
}

/**
 * What a confirmation is about: `every product read from stdin` for `-`, `product "Pro Plan" (ID)` when
 * a person will be asked (the label is fetched, so an unknown id fails before the question), else `product ID`.
 */
export async function confirmTarget(noun: string, id: string, ask: boolean, label: () => Promise<unknown>): Promise<string> {
  if (id === '-') return `every ${noun} read from stdin`
  if (!ask) return `${noun} ${id}`
  return `${noun} "${String(await label())}" (${id})`
}

// ---- benefits ----

export interface BenefitPropertyFlags {
  properties?: string
  note?: string
  prefix?: string
  'activation-limit'?: number
  'customer-admin'?: boolean
  'usage-limit'?: number
  expires?: string
  meter?: string
  units?: number
  rollover?: boolean
}

const TIMEFRAMES: Record<string, string> = {
  d: 'day',
  day: 'day',
  days: 'day',
  m: 'month',
  month: 'month',
  months: 'month',
  y: 'year',
  year: 'year',
  years: 'year',
}

/** `30d`, `6 months`, `1y` as the license-key `expires` property. */
export function expiresFrom(text: string): {ttl: number; timeframe: string} {
  const match = /^\s*(\d+)\s*([a-z]+)\s*$/i.exec(text)
  const timeframe = match && TIMEFRAMES[match[2]!.toLowerCase()]
  if (!match || !timeframe || Number(match[1]) < 1) throw usageError(`--expires takes a duration such as 30d, 6m or 1y, not "${text}"`)
  return {ttl: Number(match[1]), timeframe}
}

function jsonObject(text: string, flag: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw usageError(`${flag} is not JSON: ${(error as Error).message}`, `e.g. ${flag} '{"guild_id": "123"}'`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw usageError(`${flag} must be a JSON object`)
  return value as Record<string, unknown>
}

const LICENSE_FLAGS = ['prefix', 'activation-limit', 'customer-admin', 'usage-limit', 'expires'] as const
const METER_CREDIT_FLAGS = ['meter', 'units', 'rollover'] as const

/**
 * The `properties` of a benefit of `type` from the flags, merged over `current` (on update); undefined
 * when no property flag is given. Type-specific flags on another type are a usage error.
 */
export function benefitProperties(type: string, f: BenefitPropertyFlags, current?: Record<string, unknown>): Record<string, unknown> | undefined {
  const license = LICENSE_FLAGS.filter((k) => f[k] !== undefined)
  if (f.note !== undefined && type !== 'custom') throw usageError(`--note applies to custom benefits only, not ${type}`)
  if (license.length > 0 && type !== 'license_keys') throw usageError(`--${license[0]} applies to license_keys benefits only, not ${type}`)
  const credit = METER_CREDIT_FLAGS.filter((k) => f[k] !== undefined)
  if (credit.length > 0 && type !== 'meter_credit') throw usageError(`--${credit[0]} applies to meter_credit benefits only, not ${type}`)
  if (f.properties === undefined && f.note === undefined && license.length === 0 && credit.length === 0) return undefined
  const props: Record<string, unknown> = {...current, ...(f.properties === undefined ? {} : jsonObject(f.properties, '--properties'))}
  if (f.note !== undefined) props.note = f.note === '' ? null : f.note
  if (f.prefix !== undefined) props.prefix = f.prefix === '' ? null : f.prefix
  if (f['usage-limit'] !== undefined) props.limit_usage = f['usage-limit'] === 0 ? null : f['usage-limit']
  if (f.meter !== undefined) props.meter_id = f.meter
  if (f.units !== undefined) props.units = f.units
  if (f.rollover !== undefined) props.rollover = f.rollover
  if (type === 'meter_credit' && current === undefined) {
    props.rollover ??= false
    if (props.meter_id === undefined || props.units === undefined)
      throw usageError('a meter_credit benefit needs --meter and --units', 'e.g. --type meter_credit --meter METER_ID --units 1000')
  }
  if (f.expires !== undefined) props.expires = f.expires === 'never' ? null : expiresFrom(f.expires)
  if (f['activation-limit'] !== undefined || f['customer-admin'] !== undefined) {
    const activations = (props.activations ?? {}) as {limit?: number; enable_customer_admin?: boolean}
    const limit = f['activation-limit'] ?? activations.limit
    if (limit === undefined) throw usageError('--customer-admin needs --activation-limit (activations are off for this benefit)')
    props.activations = limit === 0 ? null : {limit, enable_customer_admin: f['customer-admin'] ?? activations.enable_customer_admin ?? false}
  }
  return props
}

/** Every item of a (bounded) stream, for a per-id result in bulk mode. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = []
  for await (const item of items) all.push(item)
  return all
}
