// How each source counts an amount (its minor units per currency), and a source's amount as Polar takes
// it: read with the source's exponent, written with the service's (src/client/currencies.ts), refused
// with the reason where it cannot be (negative, not a number, past the largest, finer than Polar keeps).
import {serviceDigits} from '../../client/currencies.js'
import {decimalShift} from '../catalog-file/kinds/values.js'
import {maximumMinor} from './minimums.js'

/** How many decimals a source's minor units of a currency have (the source's exponent). */
export type SourceDigits = (currency: string) => number

const setOf = (text: string): ReadonlySet<string> => new Set(text.split(' '))

// Stripe's API counts the currencies it lists as zero-decimal in whole units; three-decimal ones in
// thousandths; every other one in hundredths, including its special cases used without decimals (ISK,
// HUF, TWD, UGX: counted in hundredths, amounts divisible by 100).
const STRIPE_ZERO = setOf('bif clp djf gnf jpy kmf krw mga pyg rwf vnd vuv xaf xof xpf')
const STRIPE_THREE = setOf('bhd jod kwd omr tnd')
export const stripeDigits: SourceDigits = (c) => (STRIPE_ZERO.has(c.toLowerCase()) ? 0 : STRIPE_THREE.has(c.toLowerCase()) ? 3 : 2)

// ISO 4217's minor units, as Paddle ("the lowest denomination", its currencies' decimal_places) and Lemon
// Squeezy ("cents") count them: ISK and UGX in whole units, HUF, COP and MGA in hundredths.
const ISO_ZERO = setOf('bif clp djf gnf isk jpy kmf krw pyg rwf ugx vnd vuv xaf xof xpf')
const ISO_THREE = setOf('bhd iqd jod kwd lyd omr tnd')
export const isoDigits: SourceDigits = (c) => (ISO_ZERO.has(c.toLowerCase()) ? 0 : ISO_THREE.has(c.toLowerCase()) ? 3 : 2)

/** A source amount as Polar's: its minor units (`minor`) and major-unit text (`text`), or why it cannot be. */
export type PolarAmount = {minor: number; text: string} | {problem: string}

/** `amount` in the source's minor units of `currency` (whose exponent `digits` gives), as the service counts it. */
export function polarAmount(amount: number, currency: string, digits: SourceDigits): PolarAmount {
  const code = currency.toUpperCase()
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return {problem: `an amount of ${String(amount)}, not a number`}
  if (amount < 0) return {problem: `a negative amount (${amount} minor units)`}
  if (!Number.isInteger(amount)) return {problem: `an amount of ${amount} minor units, not a whole number of them`}
  if (!Number.isSafeInteger(amount)) return {problem: `an amount of ${amount} minor units, past the largest Polar takes`}
  const text = decimalShift(String(amount), -digits(currency)) ?? String(amount)
  const service = serviceDigits(currency) ?? digits(currency)
  const minor = decimalShift(text, service) ?? ''
  if (!/^\d+$/.test(minor)) return {problem: `${text} ${code} has more decimals than Polar keeps in ${code} (${service})`}
  const value = Number(minor)
  const most = maximumMinor(currency)
  if (value > most) return {problem: `${fixed(minor, service)} ${code} is more than Polar's largest amount, ${fixed(String(most), service)} ${code}`}
  return {minor: value, text: fixed(minor, service)}
}

/** 1000000, 2 -> "10000.00": the major-unit text with every decimal of the currency. */
function fixed(minor: string, digits: number): string {
  if (digits === 0) return minor
  const padded = minor.padStart(digits + 1, '0')
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`
}

/** The text of a source amount for a report, whatever it is: `12.5` minor USD -> `0.125 USD`. */
export function sourceAmountText(amount: number, currency: string, digits: SourceDigits): string {
  const shifted = Number.isFinite(amount) ? decimalShift(String(amount), -digits(currency)) : undefined
  return `${shifted ?? String(amount)} ${currency.toUpperCase()}`
}
