// Amounts typed by people: `12.00` in the currency's major unit, turned into the API's integer minor units.
import {usageError} from '../../client/till-error.js'
import {minorDigits} from '../output/format.js'

export {formatMoney} from '../output/format.js'

/** `"12.5"` USD -> 1250; `"1200"` JPY -> 1200. More decimals than the currency has is an error, not a rounding. */
export function toMinor(text: string, currency: string, flag = '--amount'): number {
  const digits = minorDigits(currency.toUpperCase())
  const match = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(text)
  if (!match) throw usageError(`${flag} must be a positive amount like 12.00, not "${text}"`)
  const fraction = match[2] ?? ''
  if (fraction.length > digits) {
    throw usageError(
      `${flag} ${text} has more decimals than ${currency.toUpperCase()} allows (${digits})`,
      digits === 0 ? `${currency.toUpperCase()} has no minor unit: give a whole number` : undefined,
    )
  }
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0)
  if (!Number.isSafeInteger(minor)) throw usageError(`${flag} ${text} is too large`)
  return minor
}

/** An amount from `--amount` (major units) or `--amount-minor` (minor units); exactly one may be given. */
export function amountFrom(
  flags: {major?: string; minor?: number},
  currency: string,
  names = {major: '--amount', minor: '--amount-minor'},
): number | undefined {
  if (flags.major !== undefined && flags.minor !== undefined) throw usageError(`give ${names.major} or ${names.minor}, not both`)
  if (flags.minor !== undefined) {
    if (!Number.isInteger(flags.minor) || flags.minor < 0) throw usageError(`${names.minor} must be a whole number of minor units (cents)`)
    return flags.minor
  }
  return flags.major === undefined ? undefined : toMinor(flags.major, currency, names.major)
}
