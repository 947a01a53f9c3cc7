// The currencies the service takes for prices and checkouts (its presentment currencies, ISO 4217, lowercase).
// Kept as one space-separated list so it reads as the fact it is (the document's PresentmentCurrency).
import type {Schema} from './wire/index.js'

/** A currency the service takes, lower-case. */
export type Currency = Schema<'PresentmentCurrency'>
const LIST = `
aed all amd aoa ars aud awg azn bam bbd bdt bif bmd bnd bob brl bsd bwp bzd cad cdf chf clp cny cop
crc cve czk djf dkk dop dzd egp etb eur fjd fkp gbp gel gip gmd gnf gtq gyd hkd hnl htg huf idr ils
inr isk jmd jpy kes kgs khr kmf krw kyd kzt lak lkr lrd lsl mad mdl mga mkd mnt mop mur mvr mwk mxn
myr mzn nad ngn nio nok npr nzd pab pen pgk php pkr pln pyg qar ron rsd rwf sar sbd scr sek sgd shp
sos srd szl thb tjs top try ttd twd tzs uah ugx usd uyu uzs vnd vuv wst xaf xcd xcg xof xpf yer zar
zmw
`

export const CURRENCIES: ReadonlySet<string> = new Set(LIST.trim().split(/\s+/))

/** Whether the service takes `code` (in any case; the API's codes are lower-case). */
export const isCurrency = (code: string): boolean => CURRENCIES.has(code.toLowerCase())

/** `code` as the API's currency when the service takes it, else undefined. */
export const asCurrency = (code: string): Currency | undefined => (CURRENCIES.has(code.toLowerCase()) ? (code.toLowerCase() as Currency) : undefined)

// The service counts an amount in whole units for these currencies and in hundredths for every other one it
// takes (the service's get_currency_decimal_factor; it has no three-decimal currency). They are Stripe's
// API units, since the service charges through Stripe: ISK, HUF, TWD and UGX, used without decimals,
// are still counted in hundredths.
const ZERO_DECIMAL: ReadonlySet<string> = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf vnd vuv xaf xof xpf'.split(' '))

/** How many decimals the service's minor units of `code` have (0 for JPY, 2 for USD and HUF), or undefined when it does not take `code`. */
export const serviceDigits = (code: string): number | undefined =>
  CURRENCIES.has(code.toLowerCase()) ? (ZERO_DECIMAL.has(code.toLowerCase()) ? 0 : 2) : undefined
