// Flags of `till discounts create|update` turned into the API's bodies, checked before anything is sent.
import {Flags} from '@oclif/core'

import type {DiscountCreate, DiscountDuration, DiscountUpdate} from '../../client/resources/discounts.js'
import {DISCOUNT_DURATIONS} from '../../client/resources/discounts.js'
import {isCurrency} from '../../client/currencies.js'
import {whenIso} from '../../cli/input/when.js'
import {usageError} from '../../client/till-error.js'
import {metadataFrom} from '../../cli/input/fields.js'
import {toMinor} from '../../cli/input/money.js'

export const discountValueFlags = {
  percent: Flags.string({description: 'Percentage off, e.g. 25 or 12.5 (up to two decimals).', helpGroup: 'VALUE'}),
  amount: Flags.string({description: 'Fixed amount off in --currency, e.g. 5.00.', helpGroup: 'VALUE'}),
  currency: Flags.string({description: 'Currency of --amount (default usd).', helpGroup: 'VALUE'}),
}

export const discountFlags = {
  name: Flags.string({char: 'n', description: 'Name shown to the customer when the discount applies.'}),
  code: Flags.string({description: 'Code customers type at checkout: 3-256 letters and digits (without one, the discount is applied by id only).'}),
  'starts-at': Flags.string({description: 'Redeemable from this time (ISO 8601, e.g. 2026-12-01 or 2026-12-01T09:00:00Z).'}),
  'ends-at': Flags.string({description: 'Redeemable until this time (ISO 8601).'}),
  'max-redemptions': Flags.integer({description: 'How many times it can be redeemed in all.', min: 1}),
  product: Flags.string({description: 'Restrict to this product id (repeatable; default: every product).', multiple: true}),
  metadata: Flags.string({char: 'm', description: 'Metadata key=value (repeatable).', multiple: true}),
}

export interface DiscountFlagValues {
  percent?: string
  amount?: string
  currency?: string
  name?: string
  code?: string
  'starts-at'?: string
  'ends-at'?: string
  'max-redemptions'?: number
  product?: string[]
  metadata?: string[]
}

/** `25` -> 2500 basis points; at most two decimals, more than 0 and at most 100. */
export function basisPoints(text: string): number {
  const match = /^\s*(\d+)(?:\.(\d{1,2}))?\s*%?\s*$/.exec(text)
  const points = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0') || 0) : Number.NaN
  if (!(points >= 1 && points <= 10_000)) throw usageError(`--percent must be a percentage between 0.01 and 100 with at most two decimals, not "${text}"`)
  return points
}

/**
 * A date flag's value as an ISO time (src/cli/input/when.ts: dates, times, times ago); `end`: a date means its
 * end (inclusive); `now`: the environment's time words count from (see nowFor).
 */
export function timeFlag(text: string, flag: string, end = false, now?: number): string {
  return whenIso(text, flag, {end, now})
}

function checkCode(code: string | undefined): void {
  if (code !== undefined && code !== '' && !/^[A-Za-z0-9]{3,256}$/.test(code)) {
    throw usageError(`--code must be 3-256 letters and digits, not "${code}"`)
  }
}

/** The value part of a body: `basis_points` or `amounts`; undefined when neither flag is given. */
function discountValue(f: DiscountFlagValues): {type: 'percentage'; basis_points: number} | {type: 'fixed'; amounts: Record<string, number>} | undefined {
  if (f.percent !== undefined && f.amount !== undefined) throw usageError('give --percent or --amount, not both')
  if (f.currency !== undefined && f.amount === undefined) throw usageError('--currency goes with --amount', 'pass --amount 5.00 --currency eur')
  if (f.percent !== undefined) return {type: 'percentage', basis_points: basisPoints(f.percent)}
  if (f.amount === undefined) return undefined
  const currency = (f.currency ?? 'usd').toLowerCase()
  if (!/^[a-z]{3}$/.test(currency)) throw usageError(`--currency must be a three-letter currency code like usd, not "${f.currency}"`)
  // as products create says it: the service takes its presentment currencies only
  if (!isCurrency(currency))
    throw usageError(`--currency ${f.currency} is not a currency the service takes`, 'use an ISO 4217 code such as usd, eur, gbp or jpy')
  const minor = toMinor(f.amount, currency)
  if (minor <= 0) throw usageError('--amount must be more than zero')
  return {type: 'fixed', amounts: {[currency]: minor}}
}

function windowOf(f: DiscountFlagValues, now?: number) {
  const startsAt = f['starts-at'] ? timeFlag(f['starts-at'], '--starts-at', false, now) : undefined
  const endsAt = f['ends-at'] ? timeFlag(f['ends-at'], '--ends-at', true, now) : undefined
  if (startsAt && endsAt && endsAt <= startsAt) throw usageError('--ends-at must be after --starts-at')
  return {starts_at: startsAt, ends_at: endsAt}
}

/** The create body; throws a usage error naming the flag for anything missing or malformed. */
export function discountCreateBody(f: DiscountFlagValues & {duration: DiscountDuration; months?: number}, now?: number): DiscountCreate {
  const value = discountValue(f)
  if (!value) throw usageError('missing the discount: give --percent 25 or --amount 5.00 --currency usd')
  if (!f.name) throw usageError('missing --name: the name customers see when the discount applies')
  checkCode(f.code)
  if (f.duration === 'repeating' && !f.months)
    throw usageError('--duration repeating needs --months, the number of months it applies', 'e.g. --duration repeating --months 3')
  if (f.duration !== 'repeating' && f.months !== undefined) throw usageError('--months goes with --duration repeating')
  return {
    ...value,
    name: f.name,
    code: f.code || undefined,
    duration: f.duration,
    duration_in_months: f.months,
    ...windowOf(f, now),
    max_redemptions: f['max-redemptions'],
    products: f.product,
    metadata: metadataFrom(f.metadata),
  }
}

/** The update body: only what was given. `--code ""` removes the code. */
export function discountUpdateBody(f: DiscountFlagValues & {months?: number; 'no-max-redemptions'?: boolean}, now?: number): DiscountUpdate {
  const value = discountValue(f)
  checkCode(f.code)
  const body: DiscountUpdate = {
    ...(value?.type === 'percentage' ? {basis_points: value.basis_points} : {}),
    ...(value?.type === 'fixed' ? {amounts: value.amounts} : {}),
    name: f.name,
    code: f.code === undefined ? undefined : f.code || null,
    duration_in_months: f.months,
    ...windowOf(f, now),
    max_redemptions: f['no-max-redemptions'] ? null : f['max-redemptions'],
    products: f.product,
    metadata: metadataFrom(f.metadata),
  }
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as DiscountUpdate
  if (Object.keys(given).length === 0) {
    throw usageError(
      'nothing to update',
      'pass --name, --code, --percent or --amount, --months, --starts-at, --ends-at, --max-redemptions, --product or --metadata',
    )
  }
  return given
}

export {DISCOUNT_DURATIONS}
