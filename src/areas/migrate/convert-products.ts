// Source products -> catalog products (with the meters of their metered prices and the license-key
// benefits of products that issue keys), as Polar takes them: one billing interval per product (a source
// product priced in several intervals becomes one product per interval), prices in one currency, one
// fixed or custom price beside any metered ones, names of 3 to 64 characters, interval counts up to 999.
import {isCurrency, serviceDigits} from '../../client/currencies.js'
import {setOwn} from '../../client/own-keys.js'
import {minorDigits} from '../../cli/output/format.js'
import {slug} from '../catalog-file/keys.js'
import {decimalShift, majorText} from '../catalog-file/kinds/values.js'
import {fitText, keyFromId, type Findings} from './findings.js'
import {LIMITS} from './limits.js'
import {minimumMinor} from './minimums.js'
import type {Interval, SourcePrice, SourceProduct} from './model.js'
import {isoDigits, polarAmount, type SourceDigits} from './units.js'

/** The metadata name that carries the source's id of every object a migration writes. */
export const MIGRATED_FROM = 'migrated_from'

type PriceEntry = Record<string, unknown> & {type: string; currency: string}

/** One product the catalog will hold, before its key is decided (a match in the target may decide it). */
export interface PlannedProduct {
  sourceId: string
  /** `stripe:prod_x`, or `stripe:prod_x@year` for the second interval of a split product. */
  migratedFrom: string
  /** The key when nothing in the target decides otherwise. */
  defaultKey: string
  entry: Record<string, unknown> & {name: string; recurring_interval: Interval | null; prices: PriceEntry[]}
  /** What identifies it among the target's products: `month 1|fixed 2900 usd`. */
  signature: string
  /** The source's ids of the prices it sells. */
  priceIds: string[]
}

export interface ConvertedProducts {
  products: PlannedProduct[]
  meters: Record<string, Record<string, unknown>>
  benefits: Record<string, Record<string, unknown>>
  /** Source product id -> the keys of its planned products (discounts limited to it name them). */
  bySource: Map<string, PlannedProduct[]>
  /** Source price id -> the planned product that sells it (discounts limited to prices name it). */
  byPrice: Map<string, PlannedProduct>
}

const ADJECTIVE: Record<Interval, string> = {day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly'}
/** Most of an interval count that Polar takes. */
const MAX_INTERVAL_COUNT = LIMITS.intervalCount
/** Most decimals of a minor unit Polar keeps in a metered unit amount. */
const UNIT_DECIMALS = 12

type Priced = Exclude<SourcePrice, {kind: 'unsupported'}>
const currencyOf = (p: Priced) => (p.kind === 'fixed' ? p.money.currency : p.currency)
const intervalOf = (p: Priced) => (p.kind === 'metered' ? p.interval : p.interval)

/** The signature of a product's main price, the same for a source product and a target product (matchSignature). */
export const signatureOf = (interval: string | null, count: number, main: {type: string; amount: number | null; currency: string}) =>
  `${interval === null ? 'once' : `${interval} ${count}`}|${main.type} ${main.amount ?? '-'} ${main.currency}`

/** Source metadata Polar can keep: at most 48 entries (one is the key, one `migrated_from`), no empty value, not "key". */
function metadataOf(p: SourceProduct, findings: Findings, migratedFrom: string): Record<string, string> {
  const out: Record<string, string> = {}
  const dropped: string[] = []
  for (const [k, v] of Object.entries(p.metadata)) {
    if (k === 'key' || k === MIGRATED_FROM || k === '' || k.length > 40 || v === '' || v.length > 500 || Object.keys(out).length >= 48) dropped.push(k)
    else setOwn(out, k, v)
  }
  if (dropped.length > 0)
    findings.change(
      'product',
      p.id,
      p.name,
      'metadata',
      `metadata left out: ${dropped.join(', ')} (Polar keeps 48 entries of up to 40/500 characters; "key" is till's)`,
    )
  out[MIGRATED_FROM] = migratedFrom
  return out
}

/** A source price's amounts in Polar's minor units (read with the source's exponent), or why one cannot be. */
function inPolarUnits(price: Priced, digits: SourceDigits): Priced | {problem: string} {
  if (price.kind === 'free') return price
  if (price.kind === 'fixed') {
    const amount = polarAmount(price.money.amount, price.money.currency, digits)
    return 'problem' in amount ? amount : {...price, money: {amount: amount.minor, currency: price.money.currency}}
  }
  if (price.kind === 'custom') {
    const out = {...price}
    for (const field of ['minimum', 'maximum', 'preset'] as const) {
      const value = price[field]
      if (value === null) continue
      const amount = polarAmount(value, price.currency, digits)
      if ('problem' in amount) return {problem: `its ${field}: ${amount.problem}`}
      out[field] = amount.minor
    }
    const text = (minor: number) => `${majorText(minor, price.currency)} ${price.currency.toUpperCase()}`
    if (out.minimum !== null && out.maximum !== null && out.minimum > out.maximum)
      return {problem: `its minimum ${text(out.minimum)} is above its maximum ${text(out.maximum)}`}
    if (out.preset !== null && ((out.minimum !== null && out.preset < out.minimum) || (out.maximum !== null && out.preset > out.maximum)))
      return {problem: `its preset ${text(out.preset)} is outside its minimum and maximum`}
    return out
  }
  // a metered unit amount is a decimal of minor units: shifted by the difference of the exponents
  const shift = (serviceDigits(price.currency) ?? digits(price.currency)) - digits(price.currency)
  const unit = decimalShift(price.unitAmount, shift)
  if (unit === undefined || unit.startsWith('-')) return {problem: `a unit amount of ${price.unitAmount} minor units`}
  return {...price, unitAmount: unit}
}

export function convertProducts(
  source: string,
  products: SourceProduct[],
  orgCurrency: string | null,
  findings: Findings,
  digits: SourceDigits = isoDigits,
): ConvertedProducts {
  const out: ConvertedProducts = {products: [], meters: {}, benefits: {}, bySource: new Map(), byPrice: new Map()}
  for (const p of products) {
    if (p.archived) {
      findings.skip('product', p.id, p.name, 'archived', 'archived at the source')
      continue
    }
    const usable: Priced[] = []
    for (const read of p.prices) {
      if (read.kind === 'unsupported') {
        findings.change('product', p.id, p.name, 'price-shape', `price ${read.id} left out: ${read.reason} has no equal in Polar`)
        continue
      }
      if (!isCurrency(currencyOf(read))) {
        findings.change('product', p.id, p.name, 'currency-unsupported', `price ${read.id} left out: Polar does not sell in ${currencyOf(read).toUpperCase()}`)
        continue
      }
      if (!Number.isSafeInteger(read.intervalCount) || read.intervalCount < 1) {
        findings.change(
          'product',
          p.id,
          p.name,
          'interval-count',
          `price ${read.id} left out: billed every ${read.intervalCount} ${intervalOf(read) ?? 'time'}s`,
        )
        continue
      }
      const price = inPolarUnits(read, digits)
      if ('problem' in price) findings.change('product', p.id, p.name, 'amount-invalid', `price ${read.id} left out: ${price.problem}`)
      else if (price.kind === 'fixed' && price.money.amount > 0 && price.money.amount < minimumMinor(price.money.currency))
        findings.change(
          'product',
          p.id,
          p.name,
          'amount-below-minimum',
          `price ${price.id} left out: ${majorText(price.money.amount, price.money.currency)} ${price.money.currency.toUpperCase()} is under Polar's least price, ${majorText(minimumMinor(price.money.currency), price.money.currency)}`,
        )
      else if (price.kind === 'custom' && price.maximum !== null && price.maximum < minimumMinor(price.currency))
        findings.change(
          'product',
          p.id,
          p.name,
          'amount-below-minimum',
          `price ${read.id} left out: its maximum ${majorText(price.maximum, price.currency)} ${price.currency.toUpperCase()} is under Polar's least price, ${majorText(minimumMinor(price.currency), price.currency)}`,
        )
      else if (price.kind === 'custom' && price.minimum !== null && price.minimum > 0 && price.minimum < minimumMinor(price.currency)) {
        const least = minimumMinor(price.currency)
        findings.change(
          'product',
          p.id,
          p.name,
          'amount-below-minimum',
          `pay-what-you-want minimum raised to Polar's least price, ${majorText(least, price.currency)} ${price.currency.toUpperCase()}`,
        )
        usable.push({...price, minimum: least, preset: price.preset !== null && price.preset < least ? least : price.preset})
      } else usable.push(price)
    }
    if (usable.length === 0) {
      findings.skip('product', p.id, p.name, 'no-price', p.prices.length === 0 ? 'it has no active price' : 'none of its prices has an equal in Polar')
      continue
    }
    // what the source itself says converting it changes (a setup fee, a trial, country prices...)
    for (const change of p.changes ?? []) findings.change('product', p.id, p.name, 'source-setting', change)
    // one product per billing interval, the default price's first
    const groups = new Map<string, Priced[]>()
    for (const price of usable) {
      const g = intervalOf(price) === null ? 'once' : `${intervalOf(price)} ${price.intervalCount}`
      groups.set(g, [...(groups.get(g) ?? []), price])
    }
    if (groups.size > 1)
      findings.change(
        'product',
        p.id,
        p.name,
        'several-intervals',
        `priced in ${groups.size} intervals (${[...groups.keys()].join(', ')}): one Polar product each`,
      )
    const planned: PlannedProduct[] = []
    let first = true
    for (const prices of groups.values()) {
      const made = convertGroup(source, p, prices, first, groups.size > 1, orgCurrency, findings, out.meters)
      first = false
      if (!made) continue
      planned.push(made)
      for (const id of made.priceIds) out.byPrice.set(id, made)
    }
    if (p.licenseKeys && planned.length > 0) {
      const key = keyFromId(p.id, '-license')
      out.benefits[key] = {
        type: 'license_keys',
        description: fitText(`${p.name} license key`, LIMITS.benefitDescription.min, LIMITS.benefitDescription.max, ' key'),
        visibility: 'public',
        properties: {
          prefix: null,
          expires: p.licenseKeys.expiresInDays === null ? null : {ttl: p.licenseKeys.expiresInDays, timeframe: 'day'},
          activations: p.licenseKeys.activationLimit === null ? null : {limit: p.licenseKeys.activationLimit, enable_customer_admin: true},
          limit_usage: null,
        },
        metadata: {[MIGRATED_FROM]: `${source}:${p.id}`},
      }
      for (const made of planned) made.entry.benefits = [key]
    }
    out.products.push(...planned)
    out.bySource.set(p.id, planned)
  }
  return out
}

function convertGroup(
  source: string,
  p: SourceProduct,
  prices: Priced[],
  first: boolean,
  split: boolean,
  orgCurrency: string | null,
  findings: Findings,
  meters: Record<string, Record<string, unknown>>,
): PlannedProduct | undefined {
  // one currency: the organization's when the source has it, else the first price's
  const currencies = [...new Set(prices.map(currencyOf))]
  const currency = orgCurrency !== null && currencies.includes(orgCurrency) ? orgCurrency : currencyOf(prices[0]!)
  const other = prices.filter((x) => currencyOf(x) !== currency)
  if (other.length > 0)
    findings.change(
      'product',
      p.id,
      p.name,
      'currency-not-sold',
      `prices in ${[...new Set(other.map((x) => currencyOf(x).toUpperCase()))].join(', ')} left out (${other.map((x) => x.id).join(', ')}): a Polar product sells in one currency, kept ${currency.toUpperCase()}`,
    )
  // moved as it is: `catalog apply` creates the product in its own currency, whatever the organization's
  if (orgCurrency !== null && currency !== orgCurrency)
    findings.note(
      'product',
      p.id,
      p.name,
      'currency-other',
      `created in ${currency.toUpperCase()}, as in the source: not the organization's default currency ${orgCurrency.toUpperCase()}`,
    )
  const kept = prices.filter((x) => currencyOf(x) === currency)
  const flat = kept.filter((x) => x.kind !== 'metered')
  if (flat.length > 1)
    findings.change(
      'product',
      p.id,
      p.name,
      'several-prices',
      `a Polar product has one fixed or pay-what-you-want price: kept ${flat[0]!.id}, left out ${flat
        .slice(1)
        .map((x) => x.id)
        .join(', ')}`,
    )
  const main = flat[0]
  let interval = intervalOf(prices[0]!)
  let count = prices[0]!.intervalCount
  if (interval !== null && count > MAX_INTERVAL_COUNT) {
    const weeks = interval === 'day' ? Math.round(count / 7) : MAX_INTERVAL_COUNT
    const to = interval === 'day' && weeks <= MAX_INTERVAL_COUNT ? {interval: 'week' as const, count: weeks} : {interval, count: MAX_INTERVAL_COUNT}
    findings.change(
      'product',
      p.id,
      p.name,
      'interval-count',
      `every ${count} ${interval}s is more than Polar's ${MAX_INTERVAL_COUNT}: billed every ${to.count} ${to.interval}s`,
    )
    interval = to.interval
    count = to.count
  }
  const entries: PriceEntry[] = []
  const priceIds: string[] = []
  if (main) {
    entries.push(flatEntry(main, currency))
    priceIds.push(main.id)
  }
  for (const m of kept.filter((x): x is Extract<Priced, {kind: 'metered'}> => x.kind === 'metered')) {
    const unit = decimalShift(m.unitAmount, -minorDigits(currency.toUpperCase()))
    const decimals = (decimalShift(m.unitAmount, 0) ?? '').split('.')[1]?.length ?? 0
    if (unit === undefined || Number(unit) <= 0 || decimals > UNIT_DECIMALS) {
      findings.change('product', p.id, p.name, 'price-shape', `metered price ${m.id} left out: a unit amount of ${m.unitAmount} minor units Polar cannot keep`)
      continue
    }
    const meterKey = meterKeyOf(m.meterName)
    if (!(meterKey in meters)) {
      meters[meterKey] = {
        name: fitText(m.meterName, 3, 200, ' meter'),
        filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: m.meterName}]},
        aggregation: {func: 'count'},
        unit: 'scalar',
        custom_label: null,
        custom_multiplier: null,
        metadata: {[MIGRATED_FROM]: `${source}:${m.meterName}`.slice(0, 500)},
      }
      findings.change(
        'meter',
        m.meterName,
        m.meterName,
        'meter-created',
        `a meter counting events named "${m.meterName}" (check its aggregation: a sum needs a property)`,
      )
    }
    entries.push({type: 'metered', meter: meterKey, unit_amount: unit, currency})
    priceIds.push(m.id)
  }
  if (entries.length === 0) {
    findings.skip('product', p.id, p.name, 'no-price', 'none of its prices has an equal in Polar')
    return undefined
  }
  let name = split && !first && interval !== null ? `${p.name} (${count === 1 ? ADJECTIVE[interval] : `every ${count} ${interval}s`})` : p.name
  const fitted = fitText(name, LIMITS.productName.min, LIMITS.productName.max, ' plan')
  if (fitted !== name)
    findings.change('product', p.id, p.name, 'name-length', `named "${fitted}": Polar takes ${LIMITS.productName.min} to ${LIMITS.productName.max} characters`)
  name = fitted
  const suffix = first ? '' : `-${interval ?? 'once'}${count === 1 ? '' : count}`
  const migratedFrom = `${source}:${p.id}${first ? '' : `@${interval ?? 'once'}${count === 1 ? '' : count}`}`
  const entry: PlannedProduct['entry'] = {
    name,
    description: p.description,
    visibility: 'public',
    recurring_interval: interval,
    ...(interval !== null && count !== 1 ? {recurring_interval_count: count} : {}),
    prices: entries,
    metadata: metadataOf(p, findings, migratedFrom),
  }
  return {
    sourceId: p.id,
    migratedFrom,
    defaultKey: keyFromId(p.id, suffix),
    entry,
    signature: signatureOf(interval, count, {
      type: main === undefined ? 'metered' : main.kind === 'custom' ? 'custom' : 'fixed',
      amount: mainAmount(main),
      currency,
    }),
    priceIds,
  }
}

const mainAmount = (p: Priced | undefined) => (p?.kind === 'fixed' ? p.money.amount : p?.kind === 'free' ? 0 : null)

/** A meter's key from its name (a meter has no source id of its own). */
export const meterKeyOf = (name: string) => `meter-${slug(name).slice(0, 34)}`

function flatEntry(p: Priced, currency: string): PriceEntry {
  if (p.kind === 'fixed') return {type: 'fixed', amount: majorText(p.money.amount, currency), currency}
  if (p.kind === 'free') return {type: 'fixed', amount: majorText(0, currency), currency}
  if (p.kind === 'custom') {
    const entry: PriceEntry = {type: 'custom', currency}
    if (p.minimum !== null) entry.minimum = majorText(p.minimum, currency)
    if (p.maximum !== null) entry.maximum = majorText(p.maximum, currency)
    if (p.preset !== null) entry.preset = majorText(p.preset, currency)
    return entry
  }
  throw new Error('a metered price is not a flat one')
}
