// src/areas/migrate/model.ts — what a migration source reads, in one normalized shape.
// Both migrate helpers create this file with exactly this content at their first commit; change it only
// by adding optional fields (and say so in your final message).

/** A recurring interval as Polar has them. */
export type Interval = 'day' | 'week' | 'month' | 'year'

/** Money in the source's minor units of the currency (cents; Source.minorDigits), with the currency in lower case (`usd`). */
export interface Money {
  amount: number
  currency: string
}

/** One price of a source product, before conversion. `raw` names the source's own shape for the report. */
export type SourcePrice =
  | {kind: 'fixed'; id: string; money: Money; interval: Interval | null; intervalCount: number; raw: string}
  | {
      kind: 'custom'
      id: string
      currency: string
      minimum: number | null
      maximum: number | null
      preset: number | null
      interval: Interval | null
      intervalCount: number
      raw: string
    }
  | {kind: 'free'; id: string; currency: string; interval: Interval | null; intervalCount: number; raw: string}
  | {kind: 'metered'; id: string; currency: string; unitAmount: string; meterName: string; interval: Interval; intervalCount: number; raw: string}
  /** A shape Polar has no equal of (tiered/volume/graduated, package pricing, trial-only...): reported, not converted. */
  | {kind: 'unsupported'; id: string; reason: string; raw: string}

export interface SourceProduct {
  /** The source's id (`prod_...`, a Lemon Squeezy product or variant id, `pro_...`): kept as `migrated_from`. */
  id: string
  name: string
  description: string | null
  archived: boolean
  prices: SourcePrice[]
  /** Lemon Squeezy products that issue license keys: the key's settings. */
  licenseKeys: {activationLimit: number | null; expiresInDays: number | null} | null
  metadata: Record<string, string>
  /** What converting it changes, each named for the precheck report (a setup fee or a trial dropped, country prices). */
  changes?: string[]
}

export interface SourceDiscount {
  /** The source's id (a coupon, a promotion code, a discount). */
  id: string
  name: string
  /** The code customers type, when the source has one (Stripe promotion codes, Lemon Squeezy and Paddle codes). */
  code: string | null
  value: {type: 'percentage'; basisPoints: number} | {type: 'fixed'; money: Money}
  duration: {type: 'once'} | {type: 'forever'} | {type: 'repeating'; months: number}
  maxRedemptions: number | null
  startsAt: string | null
  endsAt: string | null
  /** Source product ids it is limited to (empty: all products). */
  productIds: string[]
  /** Source price ids it is limited to, beside `productIds` (Paddle's `restrict_to` names prices): the products made from those prices only. */
  priceIds?: string[]
  archived: boolean
  /** What converting it changes, each named for the precheck report (a per-seat amount, billing periods read as months). */
  changes?: string[]
}

export interface SourceCustomer {
  id: string
  email: string | null
  name: string | null
  billingAddress: {line1: string | null; line2: string | null; postalCode: string | null; city: string | null; state: string | null; country: string} | null
  taxId: {value: string; type: string} | null
}

/** What the source has that an API client cannot move, counted for the precheck report. */
export interface SourceLeftovers {
  activeSubscriptions: number
  savedPaymentMethods: number
}

/** A migration source: read-only, paged, rate-limited as its API documents. */
export interface Source {
  /** `stripe`, `lemonsqueezy`, `paddle` */
  name: string
  /** How many decimals the source's minor units of a currency have (its exponent; absent: ISO 4217's, units.ts). */
  minorDigits?: (currency: string) => number
  products(progress?: (n: number) => void): AsyncIterable<SourceProduct>
  discounts(progress?: (n: number) => void): AsyncIterable<SourceDiscount>
  customers(progress?: (n: number) => void): AsyncIterable<SourceCustomer>
  leftovers(): Promise<SourceLeftovers>
}
