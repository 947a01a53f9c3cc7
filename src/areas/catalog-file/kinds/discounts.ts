// Discounts in the catalog file: name, a percentage or fixed amounts (major units by currency), the
// duration, the code, the window (starts_at, ends_at), max_redemptions, the products it is restricted to
// (by key) and metadata. The service never changes a discount's type or duration, nor its amount once it
// has been redeemed: the plan refuses those. It cannot archive a discount, only delete it, so one no
// longer in the file is reported and kept, even with --prune (an `ends_at` in the file retires it).
import {z} from 'zod'

import {isCurrency} from '../../../client/currencies.js'
import type {Item} from '../../../client/resources/common.js'
import {DISCOUNT_DURATIONS, createDiscount, listDiscounts, updateDiscount} from '../../../client/resources/discounts.js'
import {toMinor} from '../../../cli/input/money.js'
import {KEY_FIELD, KEY_RE, KEY_RULE} from '../keys.js'
import type {Change, Issue, Keys, Kind} from './kind.js'
import {changed, fileMetadata, majorText, metadataChanges, metadataSchema, moneyText, same, show, targetId} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const when = z.iso.datetime({offset: true}).nullable().default(null)

const schema = z
  .object({
    name: z.string().min(1),
    type: z.enum(['percentage', 'fixed']),
    /** Percentage discounts: 0.01 to 100 (the service keeps basis points). */
    percent: z.number().min(0.01).max(100).optional(),
    /** Fixed discounts: major units by currency. */
    amounts: z.record(z.string(), z.union([z.string(), z.number().nonnegative()]).transform(String)).optional(),
    duration: z.enum(DISCOUNT_DURATIONS),
    duration_in_months: z.int().min(1).max(999).optional(),
    code: z
      .string()
      .min(3)
      .max(256)
      .regex(/^[a-zA-Z0-9]+$/, 'a code is 3-256 letters and digits')
      .nullable()
      .default(null),
    starts_at: when,
    ends_at: when,
    max_redemptions: z.int().min(1).nullable().default(null),
    products: z.array(z.string().regex(KEY_RE, KEY_RULE)).default([]),
    metadata: metadataSchema.default({}),
  })
  .strict()

export type DiscountEntry = z.output<typeof schema>

const basisPoints = (percent: number) => Math.round(percent * 100)
/** Minor units by currency (lower case), keys sorted. */
const minorAmounts = (amounts: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(amounts)
      .map(([c, a]) => [c.toLowerCase(), toMinor(a, c, 'amount')] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  )
const iso = (value: unknown) => (typeof value === 'string' && value !== '' ? new Date(value).toISOString() : null)

function check(entry: DiscountEntry): Issue[] {
  const issues: Issue[] = []
  if (entry.type === 'percentage') {
    if (entry.percent === undefined) issues.push({path: ['percent'], message: 'a percentage discount gives its percent (0.01 to 100)'})
    else if (Math.abs(entry.percent * 100 - basisPoints(entry.percent)) > 1e-9)
      issues.push({path: ['percent'], message: 'a percent has at most 2 decimals (the service keeps basis points)'})
    if (entry.amounts !== undefined) issues.push({path: ['amounts'], message: 'amounts apply to a fixed discount'})
  } else {
    if (entry.amounts === undefined || Object.keys(entry.amounts).length === 0)
      issues.push({path: ['amounts'], message: 'a fixed discount gives its amounts by currency: {usd: "5.00"}'})
    for (const [c, a] of Object.entries(entry.amounts ?? {})) {
      if (!isCurrency(c.toLowerCase())) issues.push({path: ['amounts', c], message: `"${c}" is not a currency the service takes (e.g. usd, eur)`})
      else {
        try {
          toMinor(a, c, 'amount')
        } catch (error) {
          issues.push({path: ['amounts', c], message: (error as Error).message})
        }
      }
    }
    if (entry.percent !== undefined) issues.push({path: ['percent'], message: 'percent applies to a percentage discount'})
  }
  if (entry.duration === 'repeating' && entry.duration_in_months === undefined)
    issues.push({path: ['duration_in_months'], message: 'a repeating discount gives duration_in_months'})
  if (entry.duration !== 'repeating' && entry.duration_in_months !== undefined)
    issues.push({path: ['duration_in_months'], message: 'duration_in_months applies to a repeating discount'})
  if (entry.starts_at !== null && entry.ends_at !== null && iso(entry.ends_at)! <= iso(entry.starts_at)!)
    issues.push({path: ['ends_at'], message: 'ends_at must be after starts_at'})
  return issues
}

const productIds = (item: Item) => ((item.products ?? []) as Item[]).map((p) => p.id)

function toEntry(item: Item, keys: Keys): DiscountEntry {
  const amounts = Object.entries((item.amounts ?? {}) as Record<string, number>).sort(([a], [b]) => a.localeCompare(b))
  return {
    name: String(item.name),
    type: item.type as DiscountEntry['type'],
    ...(item.type === 'percentage' ? {percent: Number(item.basis_points) / 100} : {amounts: Object.fromEntries(amounts.map(([c, a]) => [c, majorText(a, c)]))}),
    duration: item.duration as DiscountEntry['duration'],
    ...(item.duration === 'repeating' ? {duration_in_months: Number(item.duration_in_months)} : {}),
    code: (item.code as string | null) ?? null,
    starts_at: iso(item.starts_at),
    ends_at: iso(item.ends_at),
    max_redemptions: (item.max_redemptions as number | null) ?? null,
    products: productIds(item)
      .map((id) => keys.keyOf('products', id) ?? id)
      .sort(),
    metadata: fileMetadata(item.metadata),
  }
}

const amountText = (entry: DiscountEntry) =>
  entry.type === 'percentage'
    ? `${entry.percent}%`
    : Object.entries(minorAmounts(entry.amounts ?? {}))
        .map(([c, a]) => moneyText(a, c))
        .join(', ')

const productIdsOf = (entry: DiscountEntry, keys: Keys) => entry.products.map(targetId(keys, 'products', 'product'))

const value = (entry: DiscountEntry) => (entry.type === 'percentage' ? {basis_points: basisPoints(entry.percent!)} : {amounts: minorAmounts(entry.amounts!)})

export const discounts: Kind<DiscountEntry> = {
  section: 'discounts',
  noun: nounOf('discounts'),
  schema,
  check,
  references: (entry) => entry.products.map((key, i) => ({kind: 'products', key, path: ['products', i]})),
  list: (client) => listDiscounts(client, {}, {all: true, limit: 100}),
  label: (item) => String(item.name ?? ''),
  archived: () => false,
  toEntry,
  diff(entry, item, keys) {
    const current = toEntry(item, keys)
    const redeemed = Number(item.redemptions_count ?? 0) > 0
    const changes: Change[] = [
      ...changed('name', current.name, entry.name),
      ...(same(value(current), value(entry)) || current.type !== entry.type
        ? []
        : [{field: entry.type === 'percentage' ? 'percent' : 'amounts', from: amountText(current), to: amountText(entry)}]),
      ...changed('duration_in_months', current.duration_in_months, entry.duration_in_months),
      ...changed('code', current.code, entry.code),
      ...changed('starts_at', current.starts_at, iso(entry.starts_at)),
      ...changed('ends_at', current.ends_at, iso(entry.ends_at)),
      ...changed('max_redemptions', current.max_redemptions, entry.max_redemptions),
      ...changed('products', current.products, [...entry.products].sort()),
      ...metadataChanges(current.metadata, entry.metadata),
    ]
    const fixed = [...changed('type', current.type, entry.type), ...changed('duration', current.duration, entry.duration)]
    if (fixed.length > 0)
      return {
        changes: [...fixed, ...changes],
        blocked: `a discount's type and duration cannot change in the service: give the new discount a new key${entry.code === null ? '' : ' (and another code)'}`,
      }
    if (redeemed && current.type === entry.type && !same(value(current), value(entry))) {
      return {
        changes,
        blocked: `the discount has been redeemed ${String(item.redemptions_count)} times: the service no longer changes its amount; give the new discount a new key${entry.code === null ? '' : ' (and another code)'}`,
      }
    }
    return {changes}
  },
  describe: (entry) => [
    {field: 'name', to: show(entry.name)},
    {field: 'amount', to: amountText(entry)},
    {field: 'duration', to: entry.duration === 'repeating' ? `repeating, ${entry.duration_in_months} months` : entry.duration},
    ...(entry.code === null ? [] : [{field: 'code', to: entry.code}]),
    ...(entry.products.length > 0 ? [{field: 'products', to: entry.products.join(', ')}] : []),
  ],
  create: (client, key, entry, keys) =>
    createDiscount(client, {
      name: entry.name,
      ...(entry.type === 'percentage'
        ? {type: 'percentage', basis_points: basisPoints(entry.percent!)}
        : {type: 'fixed', amounts: minorAmounts(entry.amounts!)}),
      duration: entry.duration,
      ...(entry.duration_in_months === undefined ? {} : {duration_in_months: entry.duration_in_months}),
      ...(entry.code === null ? {} : {code: entry.code}),
      ...(entry.starts_at === null ? {} : {starts_at: entry.starts_at}),
      ...(entry.ends_at === null ? {} : {ends_at: entry.ends_at}),
      ...(entry.max_redemptions === null ? {} : {max_redemptions: entry.max_redemptions}),
      products: productIdsOf(entry, keys),
      metadata: {...entry.metadata, [KEY_FIELD]: key},
    }),
  update(client, key, entry, item, keys) {
    const current = toEntry(item, keys)
    return updateDiscount(client, item.id, {
      name: entry.name,
      // the amount only when it changed: the service refuses even the same one on some redeemed discounts
      ...(same(value(current), value(entry)) ? {} : value(entry)),
      ...(entry.duration_in_months === undefined ? {} : {duration_in_months: entry.duration_in_months}),
      code: entry.code,
      starts_at: entry.starts_at,
      ends_at: entry.ends_at,
      max_redemptions: entry.max_redemptions,
      products: productIdsOf(entry, keys),
      metadata: {...entry.metadata, [KEY_FIELD]: key},
    })
  },
  kept: 'the service cannot archive a discount, only delete it (till discounts delete); an ends_at in the file stops its use',
}
