// Products in the catalog file: name, description, visibility, billing interval, prices (money with its
// currency; a metered price names its meter by key), attached benefits (by key), the custom fields asked
// at checkout (by key, with `required`, in order) and metadata. A product no longer in the file is
// archived with --prune, as the service allows; a one-time product cannot become recurring (or back).
import {z} from 'zod'

import type {Item} from '../../../client/resources/common.js'
import {createProduct, listProducts, setProductBenefits, updateProduct, type ProductCreate, type ProductUpdate} from '../../../client/resources/products.js'
import {KEY_FIELD, KEY_RE, KEY_RULE} from '../keys.js'
import type {Change, Issue, Keys, Kind} from './kind.js'
import {checkPrices, priceCreate, pricesText, priceSchema, pulledPrice, readPrice, toPrice, type Price, type PriceEntry} from './prices.js'
import {shared, Words} from '../alike.js'
import {envBound} from './benefits.js'
import {canonical, changed, targetId, fileMetadata, metadataChanges, metadataSchema, show, VISIBILITIES} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const INTERVALS = ['day', 'week', 'month', 'year'] as const

const schema = z
  .object({
    name: z.string().min(3).max(64),
    description: z.string().nullable().default(null),
    visibility: z.enum(VISIBILITIES).default('public'),
    recurring_interval: z.enum(INTERVALS).nullable().default(null),
    recurring_interval_count: z.int().min(1).max(999).optional(),
    prices: z.array(priceSchema).min(1),
    benefits: z.array(z.string().regex(KEY_RE, KEY_RULE)).default([]),
    custom_fields: z.array(z.object({field: z.string().regex(KEY_RE, KEY_RULE), required: z.boolean().default(false)}).strict()).default([]),
    metadata: metadataSchema.default({}),
  })
  .strict()

export type ProductEntry = z.output<typeof schema>

/** The price types the file has (a legacy `free` price is a fixed price of 0). Seat-based prices are not among them: the service creates them only for organizations with seat-based pricing enabled. */
const FILE_PRICES = new Set(['fixed', 'custom', 'free', 'metered_unit'])
const activePrices = (item: Item) => ((item.prices ?? []) as Array<Record<string, unknown>>).filter((p) => p.is_archived !== true)
/** What the catalog reads of a price: its amounts, currency and meter (the rest of the API's price is not kept). */
const PRICE_FIELDS = [
  'amount_type',
  'price_currency',
  'price_amount',
  'minimum_amount',
  'maximum_amount',
  'preset_amount',
  'meter_id',
  'unit_amount',
  'cap_amount',
]
const FIELD_FIELDS = ['custom_field_id', 'required', 'order']
const PRODUCT_FIELDS = ['id', 'created_at', 'name', 'description', 'visibility', 'recurring_interval', 'recurring_interval_count', 'is_archived', 'metadata']
const picked = (from: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.filter((f) => f in from).map((f) => [f, from[f]]))

/**
 * Products as the catalog keeps them while it plans: the fields the file, plan and apply read, the active
 * prices' amounts, and each attached benefit by its id and type, not the whole benefit object the API
 * embeds (a catalog of 15,000 products held 15,000 copies of each benefit). The API's product took about
 * 1.1 KB of heap; 60,000 of them were most of a plan's memory.
 */
async function* slim(products: AsyncIterable<Item>): AsyncIterable<Item> {
  // what many products have alike is held once: each benefit, words such as "month" and "usd", an empty map or list
  const benefitsById = new Map<string, Item>()
  const words = new Words()
  /** `fields` of `from`: a repeating word held once, an empty map or list shared. */
  const kept = (from: Record<string, unknown>, fields: string[]) => {
    const out = picked(from, fields)
    for (const [f, value] of Object.entries(out)) out[f] = ALIKE.has(f) ? words.word(value) : shared(value)
    return out
  }
  for await (const product of products) {
    const benefits = ((product.benefits ?? []) as Item[]).map((b) => {
      if (!benefitsById.has(b.id)) benefitsById.set(b.id, {id: b.id, type: words.word(b.type)})
      return benefitsById.get(b.id)!
    })
    yield {
      ...(kept(product, PRODUCT_FIELDS) as Item),
      prices: activePrices(product).map((p) => kept(p, PRICE_FIELDS)),
      benefits: shared(benefits),
      attached_custom_fields: shared(((product.attached_custom_fields ?? []) as Array<Record<string, unknown>>).map((f) => kept(f, FIELD_FIELDS))),
    }
  }
}
/** Fields whose values repeat from product to product (a product's name and id do not). */
const ALIKE = new Set(['visibility', 'recurring_interval', 'description', 'amount_type', 'price_currency'])

/** The product's benefits the file has: not those bound to their environment (kept attached by apply). */
const benefitIds = (item: Item) => ((item.benefits ?? []) as Item[]).filter((b) => !envBound(b)).map((b) => b.id)
const keptBenefitIds = (item: Item) => ((item.benefits ?? []) as Item[]).filter(envBound).map((b) => b.id)
const intervalCount = (entry: ProductEntry) => (entry.recurring_interval === null ? null : (entry.recurring_interval_count ?? 1))
/** Prices in a stable order, so the same prices compare equal whatever order they were given in. */
const sorted = (prices: Price[]) => [...prices].sort((a, b) => canonical(a).localeCompare(canonical(b)))
const prices = (entry: ProductEntry) => sorted(entry.prices.map(toPrice))
/** The environment's prices till can read (one it cannot is in the pulled file as it is, named by the file's check). */
const readable = (entries: PriceEntry[]) => sorted(entries.flatMap((e) => readPrice(e) ?? []))
/** Pulled prices in the order of `sorted`, those till cannot read last. */
const sortedEntries = (entries: PriceEntry[]) => {
  const order = (e: PriceEntry) => {
    const price = readPrice(e)
    return price === undefined ? `~${canonical(e)}` : canonical(price)
  }
  return [...entries].sort((a, b) => order(a).localeCompare(order(b)))
}
const meterKey = (keys: Keys) => (id: string) => keys.keyOf('meters', id) ?? id
const pricesCreate = (entry: ProductEntry, keys: Keys) => prices(entry).map((p) => priceCreate(p, targetId(keys, 'meters', 'meter')))
/** The custom fields as the service takes them, in the file's order. */
const attached = (entry: ProductEntry, keys: Keys) =>
  entry.custom_fields.map((f) => ({custom_field_id: targetId(keys, 'custom_fields', 'custom field')(f.field), required: f.required}))

function check(entry: ProductEntry): Issue[] {
  const issues = checkPrices(entry.prices)
  entry.prices.forEach((p, i) => {
    if (p.type === 'metered' && entry.recurring_interval === null)
      issues.push({path: ['prices', i], message: 'a metered price belongs to a recurring product (give recurring_interval)'})
  })
  const seen = new Set<string>()
  entry.custom_fields.forEach((f, i) => {
    if (seen.has(f.field)) issues.push({path: ['custom_fields', i, 'field'], message: `custom field "${f.field}" is attached twice`})
    seen.add(f.field)
  })
  return issues
}

function toEntry(item: Item, keys: Keys): ProductEntry {
  const entry: ProductEntry = {
    name: String(item.name),
    description: (item.description as string | null) ?? null,
    visibility: (item.visibility as ProductEntry['visibility']) ?? 'public',
    recurring_interval: (item.recurring_interval as ProductEntry['recurring_interval']) ?? null,
    prices: sortedEntries(activePrices(item).map((p) => pulledPrice(p, meterKey(keys)))),
    benefits: benefitIds(item)
      .map((id) => keys.keyOf('benefits', id) ?? id)
      .sort(),
    custom_fields: [...((item.attached_custom_fields ?? []) as Array<{custom_field_id: string; required: boolean; order?: number}>)]
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
      .map((a) => ({field: keys.keyOf('custom_fields', a.custom_field_id) ?? a.custom_field_id, required: a.required === true})),
    metadata: fileMetadata(item.metadata),
  }
  if (entry.recurring_interval !== null && Number(item.recurring_interval_count ?? 1) !== 1)
    entry.recurring_interval_count = Number(item.recurring_interval_count)
  return entry
}

const benefitIdsOf = (entry: ProductEntry, keys: Keys) => entry.benefits.map(targetId(keys, 'benefits', 'benefit'))

const PRICE_NOTE = 'the service does not edit a price: a new price is created and the old one archived (existing subscriptions keep it)'

export const products: Kind<ProductEntry> = {
  section: 'products',
  noun: nounOf('products'),
  schema,
  check,
  references: (entry) => [
    ...entry.benefits.map((key, i) => ({kind: 'benefits', key, path: ['benefits', i]})),
    ...entry.custom_fields.map((f, i) => ({kind: 'custom_fields', key: f.field, path: ['custom_fields', i, 'field']})),
    ...entry.prices.flatMap((p, i) => (p.type === 'metered' ? [{kind: 'meters', key: p.meter, path: ['prices', i, 'meter']}] : [])),
  ],
  list: (client) => slim(listProducts(client, {}, {all: true, limit: 100})),
  label: (item) => String(item.name ?? ''),
  archived: (item) => item.is_archived === true,
  unsupported(item) {
    const other = activePrices(item).find((p) => !FILE_PRICES.has(String(p.amount_type)))
    return other ? `has a ${String(other.amount_type).replaceAll('_', '-')} price` : undefined
  },
  toEntry,
  diff(entry, item, keys) {
    const current = toEntry(item, keys)
    const was = readable(current.prices)
    const changes: Change[] = [
      ...changed('name', current.name, entry.name),
      ...changed('description', current.description, entry.description),
      ...changed('visibility', current.visibility, entry.visibility),
      ...changed('recurring_interval', current.recurring_interval, entry.recurring_interval),
      ...changed('recurring_interval_count', intervalCount(current), intervalCount(entry)),
      ...(canonical(was) === canonical(prices(entry)) ? [] : [{field: 'prices', from: pricesText(was), to: pricesText(prices(entry)), note: PRICE_NOTE}]),
      ...changed('benefits', current.benefits, [...entry.benefits].sort()),
      ...changed('custom_fields', current.custom_fields, entry.custom_fields),
      ...metadataChanges(current.metadata, entry.metadata),
    ]
    if ((current.recurring_interval === null) !== (entry.recurring_interval === null)) {
      const what = entry.recurring_interval === null ? 'a recurring product cannot become one-time' : 'a one-time product cannot become recurring'
      return {changes, blocked: `${what} in the service: give the new product a new key (and archive the old one with --prune)`}
    }
    return {changes}
  },
  describe: (entry) => [
    {field: 'name', to: show(entry.name)},
    {field: 'billing', to: entry.recurring_interval === null ? 'one-time' : `every ${intervalCount(entry)} ${entry.recurring_interval}`},
    {field: 'prices', to: pricesText(prices(entry))},
    ...(entry.benefits.length > 0 ? [{field: 'benefits', to: entry.benefits.join(', ')}] : []),
    ...(entry.custom_fields.length > 0
      ? [{field: 'custom_fields', to: entry.custom_fields.map((f) => `${f.field}${f.required ? ' (required)' : ''}`).join(', ')}]
      : []),
    ...(entry.visibility === 'public' ? [] : [{field: 'visibility', to: entry.visibility}]),
  ],
  async create(client, key, entry, keys) {
    const ids = benefitIdsOf(entry, keys)
    const product = await createProduct(client, {
      name: entry.name,
      ...(entry.description === null ? {} : {description: entry.description}),
      ...(entry.recurring_interval === null ? {} : {recurring_interval: entry.recurring_interval, recurring_interval_count: intervalCount(entry)!}),
      visibility: entry.visibility,
      prices: pricesCreate(entry, keys),
      ...(entry.custom_fields.length > 0 ? {attached_custom_fields: attached(entry, keys)} : {}),
      metadata: {...entry.metadata, [KEY_FIELD]: key} as Record<string, string>,
    } as ProductCreate) // one-time or recurring, as recurring_interval says
    return ids.length > 0 ? setProductBenefits(client, product.id, ids) : product
  },
  async update(client, key, entry, item, keys) {
    const ids = [...benefitIdsOf(entry, keys), ...keptBenefitIds(item)]
    const current = toEntry(item, keys)
    const body: ProductUpdate = {
      name: entry.name,
      description: entry.description,
      visibility: entry.visibility,
      metadata: {...entry.metadata, [KEY_FIELD]: key} as Record<string, string>,
    }
    if (item.is_archived === true) body.is_archived = false
    if (canonical(readable(current.prices)) !== canonical(prices(entry))) body.prices = pricesCreate(entry, keys)
    if (canonical(current.custom_fields) !== canonical(entry.custom_fields)) body.attached_custom_fields = attached(entry, keys)
    const interval = (e: ProductEntry) => `${e.recurring_interval} ${intervalCount(e)}`
    if (interval(current) !== interval(entry) && entry.recurring_interval !== null) {
      Object.assign(body, {recurring_interval: entry.recurring_interval, recurring_interval_count: intervalCount(entry)})
    }
    const product = await updateProduct(client, item.id, body)
    return canonical([...ids].sort()) === canonical([...benefitIds(item), ...keptBenefitIds(item)].sort()) ? product : setProductBenefits(client, item.id, ids)
  },
  archive: (client, item) => updateProduct(client, item.id, {is_archived: true}),
}
