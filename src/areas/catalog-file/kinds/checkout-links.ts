// Checkout links in the catalog file: label, products (by key), the discount applied (by key), return and
// success addresses, the discount-code and billing-address switches, and metadata. Their address (`url`) and client secret are
// the environment's own and are not in the file. The service deletes links rather than archiving them,
// so a link no longer in the file is reported and kept (till never deletes).
import {z} from 'zod'

import type {Item} from '../../../client/resources/common.js'
import {createCheckoutLink, listCheckoutLinks, updateCheckoutLink} from '../../../client/resources/checkout-links.js'
import {KEY_FIELD, KEY_RE, KEY_RULE} from '../keys.js'
import type {Keys, Kind} from './kind.js'
import {changed, fileMetadata, metadataChanges, metadataSchema, show, targetId} from './values.js'
import {nounOf} from '../../../client/resources/described.js'

const address = z
  .url({protocol: /^https?$/})
  .nullable()
  .default(null)

const schema = z
  .object({
    label: z.string().min(1).nullable().default(null),
    products: z.array(z.string().regex(KEY_RE, KEY_RULE)).min(1),
    discount: z.string().regex(KEY_RE, KEY_RULE).nullable().default(null),
    success_url: address,
    return_url: address,
    allow_discount_codes: z.boolean().default(true),
    require_billing_address: z.boolean().default(false),
    metadata: metadataSchema.default({}),
  })
  .strict()

export type CheckoutLinkEntry = z.output<typeof schema>

const productIds = (item: Item) => ((item.products ?? []) as Item[]).map((p) => p.id)

function toEntry(item: Item, keys: Keys): CheckoutLinkEntry {
  return {
    label: (item.label as string | null) ?? null,
    products: productIds(item)
      .map((id) => keys.keyOf('products', id) ?? id)
      .sort(),
    discount: typeof item.discount_id === 'string' ? (keys.keyOf('discounts', item.discount_id) ?? item.discount_id) : null,
    success_url: (item.success_url as string | null) ?? null,
    return_url: (item.return_url as string | null) ?? null,
    allow_discount_codes: item.allow_discount_codes !== false,
    require_billing_address: item.require_billing_address === true,
    metadata: fileMetadata(item.metadata),
  }
}

const productIdsOf = (entry: CheckoutLinkEntry, keys: Keys) => entry.products.map(targetId(keys, 'products', 'product'))
const discountIdOf = (entry: CheckoutLinkEntry, keys: Keys) => (entry.discount === null ? null : targetId(keys, 'discounts', 'discount')(entry.discount))

const body = (key: string, entry: CheckoutLinkEntry, keys: Keys) => ({
  products: productIdsOf(entry, keys),
  discount_id: discountIdOf(entry, keys),
  label: entry.label,
  success_url: entry.success_url,
  return_url: entry.return_url,
  allow_discount_codes: entry.allow_discount_codes,
  require_billing_address: entry.require_billing_address,
  metadata: {...entry.metadata, [KEY_FIELD]: key} as Record<string, string>,
})

export const checkoutLinks: Kind<CheckoutLinkEntry> = {
  section: 'checkout_links',
  noun: nounOf('checkout-links'),
  schema,
  references: (entry) => [
    ...entry.products.map((key, i) => ({kind: 'products', key, path: ['products', i]})),
    ...(entry.discount === null ? [] : [{kind: 'discounts', key: entry.discount, path: ['discount']}]),
  ],
  list: (client) => listCheckoutLinks(client, {}, {all: true, limit: 100}),
  label: (item) => String(item.label ?? 'checkout link'),
  archived: () => false,
  toEntry,
  diff(entry, item, keys) {
    const current = toEntry(item, keys)
    return {
      changes: [
        ...changed('label', current.label, entry.label),
        ...changed('products', current.products, [...entry.products].sort()),
        ...changed('discount', current.discount, entry.discount),
        ...changed('success_url', current.success_url, entry.success_url),
        ...changed('return_url', current.return_url, entry.return_url),
        ...changed('allow_discount_codes', current.allow_discount_codes, entry.allow_discount_codes),
        ...changed('require_billing_address', current.require_billing_address, entry.require_billing_address),
        ...metadataChanges(current.metadata, entry.metadata),
      ],
    }
  },
  describe: (entry) => [
    ...(entry.label === null ? [] : [{field: 'label', to: show(entry.label)}]),
    {field: 'products', to: entry.products.join(', ')},
    ...(entry.discount === null ? [] : [{field: 'discount', to: entry.discount}]),
  ],
  create: (client, key, entry, keys) => {
    const {label, success_url: success, return_url: back, discount_id: discount, ...rest} = body(key, entry, keys)
    return createCheckoutLink(client, {
      payment_processor: 'stripe',
      ...rest,
      ...(label === null ? {} : {label}),
      ...(success === null ? {} : {success_url: success}),
      ...(back === null ? {} : {return_url: back}),
      ...(discount === null ? {} : {discount_id: discount}),
    })
  },
  update: (client, key, entry, item, keys) => updateCheckoutLink(client, item.id, body(key, entry, keys)),
  kept: 'the service deletes checkout links rather than archiving them, and till never deletes (till checkout-links delete)',
}
