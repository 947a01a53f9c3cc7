// A source's catalog as till's catalog document, mapped onto the target's keys, and the precheck report's
// numbers: what converts as is, what converts with a change, what cannot move (and why), and what the
// service's own migration path has to move (active subscriptions, saved payment methods).
import type {Catalog} from '../catalog-file/document.js'
import type {Environment} from '../catalog-file/plan.js'
import {EnvironmentKeys} from '../catalog-file/plan.js'
import {convertDiscounts} from './convert-others.js'
import {convertProducts, MIGRATED_FROM} from './convert-products.js'
import type {Finding, FindingKind, Findings} from './findings.js'
import {keyOf, mapDiscounts, mapProducts} from './mapping.js'
import type {SourceDiscount, SourceLeftovers, SourceProduct} from './model.js'
import {DEMO_NOTE, DEMO_SOURCE} from './demo.js'
import {isoDigits, type SourceDigits} from './units.js'

export interface Converted {
  catalog: Catalog
  /** Source product id -> the target product it was adopted onto by name and price. */
  adopted: Array<{sourceId: string; id: string; key: string}>
  read: {products: number; discounts: number}
}

/** The catalog of `products` and `discounts`, keyed onto `target` (the target's catalog as read; empty to map onto nothing). */
export function convertCatalog(
  source: string,
  input: {products: SourceProduct[]; discounts: SourceDiscount[]},
  target: Environment,
  options: {orgCurrency: string | null; maps: Map<string, string>; digits?: SourceDigits; now?: number},
  findings: Findings,
): Converted {
  const keyed = new EnvironmentKeys(target)
  const inTarget = (section: string) => keyed.keyed.get(section) ?? []
  const digits = options.digits ?? isoDigits
  const converted = convertProducts(source, input.products, options.orgCurrency, findings, digits)
  const mapped = mapProducts(converted.products, inTarget('products'), options.maps, source)
  // meters and benefits an earlier run made keep their keys
  const meterKeys = new Map<string, string>()
  const meters: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(converted.meters)) {
    const own = keyOf(inTarget('meters'), String((entry.metadata as Record<string, string>)[MIGRATED_FROM]), key)
    meterKeys.set(key, own)
    meters[own] = entry
  }
  const benefitKeys = new Map<string, string>()
  const benefits: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(converted.benefits)) {
    const own = keyOf(inTarget('benefits'), String((entry.metadata as Record<string, string>)[MIGRATED_FROM]), key)
    benefitKeys.set(key, own)
    benefits[own] = entry
  }
  const products: Record<string, unknown> = {}
  for (const p of converted.products) {
    const entry = {...p.entry}
    entry.prices = entry.prices.map((price) => (price.type === 'metered' ? {...price, meter: meterKeys.get(String(price.meter)) ?? price.meter} : price))
    if (Array.isArray(entry.benefits)) entry.benefits = (entry.benefits as string[]).map((b) => benefitKeys.get(b) ?? b)
    products[mapped.keys.get(p)!] = entry
  }
  const productKeys = (id: string) => (converted.bySource.get(id) ?? []).map((p) => mapped.keys.get(p)!)
  const priceKey = (id: string) => {
    const made = converted.byPrice.get(id)
    return made === undefined ? undefined : mapped.keys.get(made)
  }
  const planned = convertDiscounts(source, input.discounts, {productKeys, priceKey, digits, now: options.now ?? Date.now()}, findings)
  const discountKeys = mapDiscounts(planned, inTarget('discounts'))
  const discounts: Record<string, unknown> = {}
  for (const d of planned) discounts[discountKeys.get(d)!] = d.entry
  return {
    catalog: {meters, custom_fields: {}, benefits, products, discounts, checkout_links: {}, webhook_endpoints: {}},
    adopted: mapped.adopted,
    read: {products: input.products.length, discounts: input.discounts.length},
  }
}

/** Where the service's own migration path is, for what an API client cannot move. */
export const LEFTOVER_PATHS: Record<string, {subscriptions: string; paymentMethods: string}> = {
  stripe: {
    subscriptions:
      "Polar's assisted Stripe migration (dashboard, Settings > Migrations; where the tab is missing, Polar support) switches each one over with its paid period; till creates no subscription",
    paymentMethods:
      "in that assisted migration Stripe copies saved cards to Polar's payment processor; an API client can neither read nor create a payment method",
  },
  lemonsqueezy: {
    subscriptions:
      'Polar has no assisted migration from Lemon Squeezy: contact Polar support first; each subscriber moves by checking out again on Polar, and the Lemon Squeezy subscription ends only once the Polar one is active (one system renews each); till creates no subscription',
    paymentMethods: 'Lemon Squeezy keeps a card only with its subscription, and no API reads it: each customer enters one again at the Polar checkout',
  },
  paddle: {
    subscriptions:
      'Polar has no assisted migration from Paddle: contact Polar support first; each subscriber moves by checking out again on Polar, and the Paddle subscription ends only once the Polar one is active (one system renews each); till creates no subscription',
    paymentMethods:
      "Paddle's saved payment methods (listed per customer, not counted here) cannot be read by an API client: each customer enters one again at the Polar checkout",
  },
}

LEFTOVER_PATHS[DEMO_SOURCE] = LEFTOVER_PATHS.stripe!

export interface ReportInput {
  source: string
  findings: Findings
  converted: Converted
  customers: {read: number; moved: number}
  leftovers: SourceLeftovers
}

interface KindCounts {
  read: number
  as_is: number
  changed: number
  not_moved: number
}

export interface Report {
  source: string
  /** Set on a demo run (`--demo`): what the data is. */
  demo?: string
  counts: {products: KindCounts; discounts: KindCounts; customers: KindCounts}
  /** What the written files hold: what `catalog apply` and `customers import` create the first time. */
  written: {meters: number; benefits: number; products: number; discounts: number; customers: number}
  adopted: Converted['adopted']
  changes: Finding[]
  /** What is worth knowing of objects converted as is (counted in `as_is`). */
  notes: Finding[]
  not_moved: Finding[]
  cannot_move: Array<{what: string; count: number; why: string}>
}

export function buildReport(r: ReportInput): Report {
  const counts = (kind: FindingKind, read: number): KindCounts => {
    const notMoved = r.findings.notMovedCount(kind)
    const changed = r.findings.changedCount(kind)
    return {read, as_is: Math.max(0, read - notMoved - changed), changed, not_moved: notMoved}
  }
  const paths = LEFTOVER_PATHS[r.source] ?? {subscriptions: "the service's own migration path", paymentMethods: "the service's own migration path"}
  const c = r.converted.catalog
  return {
    source: r.source,
    ...(r.source === DEMO_SOURCE ? {demo: DEMO_NOTE} : {}),
    counts: {
      products: counts('product', r.converted.read.products),
      discounts: counts('discount', r.converted.read.discounts),
      customers: counts('customer', r.customers.read),
    },
    written: {
      meters: Object.keys(c.meters ?? {}).length,
      benefits: Object.keys(c.benefits ?? {}).length,
      products: Object.keys(c.products ?? {}).length,
      discounts: Object.keys(c.discounts ?? {}).length,
      customers: r.customers.moved,
    },
    adopted: r.converted.adopted,
    changes: r.findings.changes,
    notes: r.findings.notes,
    not_moved: r.findings.notMoved,
    cannot_move: [
      {what: 'active subscriptions', count: r.leftovers.activeSubscriptions, why: paths.subscriptions},
      {what: 'saved payment methods', count: r.leftovers.savedPaymentMethods, why: paths.paymentMethods},
    ],
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The report as a person reads it. */
/**
 * The report for people. `shown` is applied to every text from the source (names, ids, codes in the
 * details): on a terminal, the one function that escapes control and reordering characters.
 */
export function reportText(report: Report, shown: (text: string) => string = (text) => text): string {
  const lines: string[] = [`Precheck of the ${report.source} migration`, '']
  if (report.demo) lines.push(`This is ${report.demo}.`, '')
  for (const [kind, c] of Object.entries(report.counts))
    lines.push(`${kind.padEnd(10)} ${String(c.read).padStart(6)} read: ${c.as_is} as is, ${c.changed} with a change, ${c.not_moved} not moved`)
  const w = report.written
  lines.push(
    '',
    `Written: ${plural(w.products, 'product')}, ${plural(w.discounts, 'discount')}, ${plural(w.meters, 'meter')}, ${plural(w.benefits, 'benefit')}, ${plural(w.customers, 'customer')}.`,
  )
  if (report.adopted.length > 0) {
    lines.push('', `Mapped onto products the target has (same name, interval, currency and amount):`)
    for (const a of report.adopted) lines.push(`  ${shown(a.sourceId)} -> ${a.id} (key ${a.key})`)
  }
  const section = (title: string, findings: Finding[]) => {
    if (findings.length === 0) return
    lines.push('', title)
    for (const f of findings) lines.push(`  ${f.kind} ${shown(f.id)} "${shown(f.name)}": [${f.rule}] ${shown(f.detail)}`)
  }
  section('Converted as is, worth knowing:', report.notes)
  section('Converted with a change:', report.changes)
  section('Not moved:', report.not_moved)
  lines.push('', 'Cannot be moved by an API client:')
  for (const m of report.cannot_move) lines.push(`  ${plural(m.count, m.what.replace(/s$/, ''), m.what)}: ${m.why}`)
  return `${lines.join('\n')}\n`
}
