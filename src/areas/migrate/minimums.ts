// The least amount of a fixed price Polar takes, by currency (the 2026-10 document's description of
// ProductPriceFixedCreate.price_amount, in major units; 0 is a free price). minimums.test.ts checks this
// list against the document.
import {minorDigits} from '../../cli/output/format.js'
import {decimalShift} from '../catalog-file/kinds/values.js'

export const MINIMUMS = `
usd:0.5 aed:2 all:50 amd:200 aoa:500 ars:750 aud:0.7 awg:1 azn:1 bam:1 bbd:2 bdt:70 bif:2000 bmd:1 bnd:1 bob:5
brl:2.5 bsd:1 bwp:10 bzd:2 cad:0.7 cdf:2000 chf:0.5 clp:500 cny:5 cop:2000 crc:300 cve:50 czk:15 djf:100 dkk:3.2
dop:40 dzd:70 egp:30 etb:80 eur:0.5 fjd:2 fkp:1 gbp:0.4 gel:2 gnf:5000 gip:1 gmd:40 gtq:5 gyd:200 hkd:4 hnl:20
htg:70 huf:175 idr:9000 ils:1.5 inr:60 isk:70 jmd:80 jpy:80 kes:70 kgs:50 khr:3000 kmf:500 krw:800 kyd:1 kzt:300
lak:20000 lkr:200 lrd:100 lsl:10 mad:5 mdl:10 mga:3000 mkd:50 mnt:2000 mop:5 mur:50 mvr:8 mxn:9 mwk:1000 myr:2
mzn:50 nad:10 ngn:700 nio:20 nok:5 npr:80 nzd:0.9 pab:1 pen:2 pgk:3 php:35 pkr:200 pln:2 pyg:4000 qar:2 ron:2.5
rsd:60 rwf:1000 sar:2 sbd:4 scr:8 sek:5 sgd:0.7 shp:1 sos:500 srd:20 szl:10 thb:20 tjs:5 top:2 try:30 ttd:4 twd:20
tzs:2000 uah:30 ugx:2000 uyu:20 uzs:7000 vnd:20000 vuv:100 wst:2 xaf:500 xcd:2 xcg:1 xof:500 xpf:100 yer:200 zar:9
zmw:10
`

const TABLE = new Map(
  MINIMUMS.trim()
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]),
)

/** The least non-zero amount of a price in `currency`, in minor units ("other currencies: 50 minor units"). */
export function minimumMinor(currency: string): number {
  const major = TABLE.get(currency.toLowerCase())
  return major === undefined ? 50 : Number(decimalShift(major, minorDigits(currency)))
}

// The most a price may be, in minor units (the service's product schemas refuse more; its kit/currency
// module): 999,999.99 in every currency but those whose unit is worth little, about 1,000 USD in those.
const MAXIMUM_DEFAULT = 99_999_999
const MAXIMUMS: Record<string, number> = {
  ars: 140_000_000,
  cdf: 280_000_000,
  cop: 400_000_000,
  idr: 1_600_000_000,
  khr: 400_000_000,
  lak: 2_100_000_000,
  mnt: 350_000_000,
  mwk: 175_000_000,
  ngn: 155_000_000,
  tzs: 250_000_000,
  ugx: 370_000_000,
  uzs: 1_250_000_000,
}

/** The largest amount of a price in `currency` Polar takes, in its minor units. */
export const maximumMinor = (currency: string): number => MAXIMUMS[currency.toLowerCase()] ?? MAXIMUM_DEFAULT
