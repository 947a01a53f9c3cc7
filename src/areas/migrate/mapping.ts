// Mapping a migration onto the target's catalog, read-only: each planned object gets the key of the
// target object it stands for, so that `catalog apply` adopts or updates that object instead of creating a
// duplicate. A product is found by the `migrated_from` an earlier run recorded, else by an exact match of
// name, billing interval, currency and amount with exactly one product; a name shared with products none
// of which (or more than one of which) matches stops the run, listing them, until `--map` decides.
import type {Item} from '../../client/resources/common.js'
import {TillError, ExitCode} from '../../client/till-error.js'
import type {Keyed} from '../catalog-file/keys.js'
import {MIGRATED_FROM, signatureOf, type PlannedProduct} from './convert-products.js'
import type {PlannedDiscount} from './convert-others.js'

/** The target's objects of one kind with their catalog keys (as `catalog plan` gives them). */
export type KeyedItems = Keyed[]

const migratedFrom = (item: Item) => (item.metadata as Record<string, unknown> | undefined)?.[MIGRATED_FROM]

/** The signature of a target product's main price (signatureOf). */
export function targetSignature(item: Item): string {
  const prices = ((item.prices ?? []) as Array<Record<string, unknown>>).filter((p) => p.is_archived !== true)
  const flat = prices.find((p) => p.amount_type === 'fixed' || p.amount_type === 'free' || p.amount_type === 'custom')
  const any = flat ?? prices[0]
  const currency = String(any?.price_currency ?? 'usd').toLowerCase()
  const interval = (item.recurring_interval as string | null) ?? null
  const count = Number(item.recurring_interval_count ?? 1)
  if (!flat) return signatureOf(interval, count, {type: 'metered', amount: null, currency})
  if (flat.amount_type === 'custom') return signatureOf(interval, count, {type: 'custom', amount: null, currency})
  return signatureOf(interval, count, {type: 'fixed', amount: flat.amount_type === 'free' ? 0 : Number(flat.price_amount ?? 0), currency})
}

export interface Mapped {
  /** Planned product -> key. */
  keys: Map<PlannedProduct, string>
  /** Source id -> the target product it was mapped onto by name and price (not by an earlier run). */
  adopted: Array<{sourceId: string; id: string; key: string}>
}

/**
 * The key of each planned product. `maps` is `--map SOURCE_ID=POLAR_ID` (the source id as the precheck
 * names it: `prod_x`, or `prod_x@year` for a split product's other interval).
 */
export function mapProducts(planned: PlannedProduct[], target: KeyedItems, maps: Map<string, string>, source: string): Mapped {
  const live = target.filter((k) => k.item.is_archived !== true)
  const keys = new Map<PlannedProduct, string>()
  const adopted: Mapped['adopted'] = []
  const claimed = new Set<string>()
  const clashes: string[] = []
  const taken = new Set(target.map((k) => k.key))
  const byId = new Map(target.map((k) => [k.item.id, k]))
  for (const p of planned) {
    const sourceRef = p.migratedFrom.slice(source.length + 1)
    const chosen = maps.get(sourceRef)
    let found: Keyed | undefined
    if (chosen !== undefined) {
      found = byId.get(chosen)
      if (!found)
        throw new TillError(
          `--map ${sourceRef}=${chosen}: the target has no product ${chosen}`,
          ExitCode.usage,
          'give the id of one of its products (till products list)',
        )
    } else {
      const earlier = target.filter((k) => migratedFrom(k.item) === p.migratedFrom)
      found = earlier.find((k) => k.item.is_archived !== true) ?? earlier[0]
    }
    if (!found) {
      const named = live.filter((k) => String(k.item.name) === p.entry.name && !claimed.has(k.item.id) && migratedFrom(k.item) === undefined)
      const matches = named.filter((k) => targetSignature(k.item) === p.signature)
      if (matches.length === 1) {
        found = matches[0]
        adopted.push({sourceId: sourceRef, id: found!.item.id, key: found!.key})
      } else if (named.length > 0) {
        clashes.push(
          `${sourceRef} "${p.entry.name}" (${p.signature.replace('|', ', ')}): ${matches.length > 1 ? 'several products match' : 'same name, other price'}: ${named.map((k) => `${k.item.id} (${targetSignature(k.item).replace('|', ', ')})`).join('; ')}`,
        )
        continue
      }
    }
    if (found) {
      claimed.add(found.item.id)
      keys.set(p, found.key)
      continue
    }
    let key = p.defaultKey
    for (let n = 2; taken.has(key); n++) key = `${p.defaultKey.slice(0, 36)}-${n}`
    taken.add(key)
    keys.set(p, key)
  }
  if (clashes.length > 0) {
    throw new TillError(
      `${clashes.length} source product${clashes.length === 1 ? ' has' : 's have'} the name of a product in the target without a unique match:\n${clashes.map((c) => `  ${c}`).join('\n')}`,
      ExitCode.usage,
      'say which target product each stands for with --map SOURCE_ID=POLAR_ID (or rename one of them), then run it again',
    )
  }
  return {keys, adopted}
}

/** The key of each planned discount: an earlier run's, or the target's discount with the same code (adopted), or its own. */
export function mapDiscounts(planned: PlannedDiscount[], target: KeyedItems): Map<PlannedDiscount, string> {
  const keys = new Map<PlannedDiscount, string>()
  const taken = new Set(target.map((k) => k.key))
  for (const d of planned) {
    const found =
      target.find((k) => migratedFrom(k.item) === d.migratedFrom) ??
      (d.entry.code === null ? undefined : target.find((k) => String(k.item.code ?? '').toLowerCase() === d.entry.code!.toLowerCase()))
    if (found) {
      keys.set(d, found.key)
      continue
    }
    let key = d.defaultKey
    for (let n = 2; taken.has(key); n++) key = `${d.defaultKey.slice(0, 36)}-${n}`
    taken.add(key)
    keys.set(d, key)
  }
  return keys
}

/** The key of an object (a meter, a benefit) an earlier run recorded `migrated_from` on, else `own`. */
export function keyOf(target: KeyedItems, from: string, own: string): string {
  return target.find((k) => migratedFrom(k.item) === from)?.key ?? own
}
