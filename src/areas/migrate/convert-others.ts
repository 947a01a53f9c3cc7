// Source discounts -> catalog discounts, and source customers -> the JSON lines `till customers import`
// takes, as Polar takes them: codes of 3 to 256 letters and digits (unique whatever their case),
// repeating durations up to 999 months, fixed amounts in a currency Polar sells in; a customer has an
// e-mail address (unique in an organization), a billing country Polar knows, a tax id beside an address.
import {isCountry} from '../../client/countries.js'
import {isCurrency} from '../../client/currencies.js'
import {MIGRATED_FROM} from './convert-products.js'
import {keyFromId, type Findings} from './findings.js'
import {LIMITS} from './limits.js'
import type {SourceCustomer, SourceDiscount} from './model.js'
import {polarAmount, type SourceDigits} from './units.js'

export interface PlannedDiscount {
  sourceId: string
  migratedFrom: string
  defaultKey: string
  entry: Record<string, unknown> & {code: string | null}
}

const MAX_MONTHS = LIMITS.discountMonths
const CODE = /^[A-Za-z0-9]+$/
/** A date and time with its offset, as the catalog takes it. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

export interface DiscountContext {
  /** The catalog keys of a source product (none: it does not move). */
  productKeys: (id: string) => string[]
  /** The catalog key of the product that sells a source price (undefined: the price does not move). */
  priceKey: (id: string) => string | undefined
  /** The source's exponent of a currency (units.ts). */
  digits: SourceDigits
  /** Now, in milliseconds: a discount that ended before it is no longer redeemable. */
  now: number
}

/** What is wrong with a discount's value or duration that Polar would otherwise change silently, if anything. */
function refusedValue(d: SourceDiscount): {rule: string; detail: string} | undefined {
  if (d.value.type === 'percentage') {
    const bp = d.value.basisPoints
    if (!Number.isInteger(bp) || bp < 1 || bp > 10_000) return {rule: 'discount-value', detail: `a percentage of ${bp / 100}%: Polar takes 0.01% to 100%`}
  }
  if (d.duration.type === 'repeating' && (!Number.isInteger(d.duration.months) || d.duration.months < 1))
    return {rule: 'coupon-duration', detail: `repeats for ${d.duration.months} months: Polar takes 1 to ${MAX_MONTHS}`}
  for (const date of [d.startsAt, d.endsAt])
    if (date !== null && !(ISO_DATE.test(date) && Number.isFinite(Date.parse(date))))
      return {rule: 'discount-dates', detail: `"${date}" is not a date and time Polar takes`}
  if (d.startsAt !== null && d.endsAt !== null && Date.parse(d.endsAt) <= Date.parse(d.startsAt))
    return {rule: 'discount-dates', detail: `it ends (${d.endsAt}) before it starts (${d.startsAt})`}
  return undefined
}

export function convertDiscounts(source: string, discounts: SourceDiscount[], context: DiscountContext, findings: Findings): PlannedDiscount[] {
  const out: PlannedDiscount[] = []
  const codes = new Map<string, string>()
  for (const d of discounts) {
    if (d.archived) {
      findings.skip('discount', d.id, d.name, 'archived', 'no longer redeemable at the source (expired, used up or deactivated)')
      continue
    }
    const ends = d.endsAt === null ? Number.NaN : Date.parse(d.endsAt)
    if (ends <= context.now) {
      findings.skip('discount', d.id, d.name, 'archived', `no longer redeemable at the source: it expired on ${d.endsAt}`)
      continue
    }
    const refused = refusedValue(d)
    if (refused) {
      findings.skip('discount', d.id, d.name, refused.rule, refused.detail)
      continue
    }
    for (const change of d.changes ?? []) findings.change('discount', d.id, d.name, 'source-setting', change)
    let code = d.code
    if (code !== null && !CODE.test(code)) {
      const stripped = code.replace(/[^A-Za-z0-9]/g, '')
      findings.change('discount', d.id, d.name, 'code-characters', `code "${code}" becomes "${stripped}": Polar takes letters and digits only`)
      code = stripped
    }
    if (code !== null && (code.length < LIMITS.code.min || code.length > LIMITS.code.max)) {
      findings.skip(
        'discount',
        d.id,
        d.name,
        'code-length',
        `code "${code}" has ${code.length} characters: Polar takes ${LIMITS.code.min} to ${LIMITS.code.max}`,
      )
      continue
    }
    if (code !== null) {
      const earlier = codes.get(code.toLowerCase())
      if (earlier !== undefined) {
        findings.skip('discount', d.id, d.name, 'code-duplicate', `code "${code}" is also ${earlier}'s: Polar codes are unique whatever their case`)
        continue
      }
      codes.set(code.toLowerCase(), d.id)
    }
    const entry: PlannedDiscount['entry'] = {name: d.name.trim() === '' ? d.id : d.name, code}
    if (d.value.type === 'percentage') {
      entry.type = 'percentage'
      entry.percent = d.value.basisPoints / 100
    } else {
      const {amount, currency} = d.value.money
      if (!isCurrency(currency)) {
        findings.skip('discount', d.id, d.name, 'currency-unsupported', `an amount in ${currency.toUpperCase()}: Polar does not sell in it`)
        continue
      }
      const polar = polarAmount(amount, currency, context.digits)
      if ('problem' in polar || polar.minor === 0) {
        findings.skip('discount', d.id, d.name, 'amount-invalid', 'problem' in polar ? polar.problem : 'an amount of 0: it takes nothing off')
        continue
      }
      entry.type = 'fixed'
      entry.amounts = {[currency]: polar.text}
    }
    entry.duration = d.duration.type
    if (d.duration.type === 'repeating') {
      let months = d.duration.months
      if (months > MAX_MONTHS) {
        findings.change('discount', d.id, d.name, 'coupon-duration', `repeats ${months} months, longer than Polar's ${MAX_MONTHS}: ${MAX_MONTHS} months`)
        months = MAX_MONTHS
      }
      entry.duration_in_months = months
    }
    entry.starts_at = d.startsAt
    entry.ends_at = d.endsAt
    entry.max_redemptions = d.maxRedemptions !== null && d.maxRedemptions >= 1 ? d.maxRedemptions : null
    // limited to products, or to prices: the products made from those prices only (a product split by interval
    // is limited to the part that sells the price)
    const priceIds = d.priceIds ?? []
    const keys = [...d.productIds.flatMap(context.productKeys), ...priceIds.map(context.priceKey).filter((k): k is string => k !== undefined)]
    const missing = [...d.productIds.filter((id) => context.productKeys(id).length === 0), ...priceIds.filter((id) => context.priceKey(id) === undefined)]
    if (d.productIds.length + priceIds.length > 0 && keys.length === 0) {
      findings.skip(
        'discount',
        d.id,
        d.name,
        'products-not-moved',
        `limited to products that do not move (${missing.join(', ')}): it would apply to every product`,
      )
      continue
    }
    if (missing.length > 0) findings.change('discount', d.id, d.name, 'products-not-moved', `no longer limited to ${missing.join(', ')}, which do not move`)
    entry.products = [...new Set(keys)].sort()
    entry.metadata = {[MIGRATED_FROM]: `${source}:${d.id}`}
    out.push({sourceId: d.id, migratedFrom: `${source}:${d.id}`, defaultKey: keyFromId(d.id), entry})
  }
  return out
}

export type ExternalIdMode = 'source-id' | 'email' | 'none'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The customer lines, one per customer that moves (in the source's order). */
export class CustomerConverter {
  private readonly emails = new Map<string, string>()

  constructor(
    private readonly source: string,
    private readonly externalId: ExternalIdMode,
    private readonly findings: Findings,
  ) {}

  /** The line for `c`, or undefined when it does not move (the finding says why). */
  line(c: SourceCustomer): Record<string, unknown> | undefined {
    const name = c.name ?? c.email ?? c.id
    const email = c.email?.trim() ?? ''
    if (!EMAIL.test(email)) {
      this.findings.skip(
        'customer',
        c.id,
        name,
        'no-email',
        email === '' ? 'no e-mail address: a Polar customer has one' : `"${email}" is not an e-mail address`,
      )
      return undefined
    }
    const earlier = this.emails.get(email.toLowerCase())
    if (earlier !== undefined) {
      this.findings.skip('customer', c.id, name, 'duplicate-email', `the same e-mail as ${earlier}: an e-mail address is one customer in Polar`)
      return undefined
    }
    this.emails.set(email.toLowerCase(), c.id)
    const line: Record<string, unknown> = {email}
    if (c.name && c.name.length > LIMITS.customerName)
      this.findings.change('customer', c.id, name, 'name-length', `name cut to ${LIMITS.customerName} characters, the most Polar keeps`)
    if (c.name) line.name = c.name.slice(0, LIMITS.customerName)
    if (this.externalId === 'source-id') line.external_id = c.id
    else if (this.externalId === 'email') line.external_id = email.toLowerCase()
    let address = c.billingAddress
    if (address && !isCountry(address.country)) {
      this.findings.change('customer', c.id, name, 'country-unsupported', `billing address left out: Polar does not take the country "${address.country}"`)
      address = null
    }
    if (address)
      line.billing_address = {
        line1: address.line1,
        line2: address.line2,
        postal_code: address.postalCode,
        city: address.city,
        state: address.state,
        country: address.country,
      }
    if (c.taxId) {
      const value = c.taxId.value.replaceAll(/[\s.\-/]/g, '').toUpperCase()
      if (!address)
        this.findings.change('customer', c.id, name, 'tax-id-needs-address', `tax id ${c.taxId.value} left out: Polar takes one with a billing address only`)
      else if (!/^[A-Z0-9]{3,31}$/.test(value))
        this.findings.change('customer', c.id, name, 'tax-id-format', `tax id "${c.taxId.value}" left out: not one Polar takes`)
      else line.tax_id = value
    }
    line.metadata = {[MIGRATED_FROM]: `${this.source}:${c.id}`}
    return line
  }
}
