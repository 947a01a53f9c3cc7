// The seeded catalog: a fixed list of products (repeated with a number when more are asked for).
import {DAY, iso} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'
import type {BenefitRecord} from '../benefits/model.js'
import type {PriceRecord, ProductRecord} from './model.js'

interface CatalogEntry {
  name: string
  description: string
  interval: ProductRecord['recurring_interval']
  price: {type: 'fixed'; amount: number} | {type: 'custom'; min: number; preset: number | null; max: number | null}
  currency?: string
  visibility?: ProductRecord['visibility']
  archived?: boolean
  benefits: number[]
  metadata?: ProductRecord['metadata']
}

const CATALOG: CatalogEntry[] = [
  {
    name: 'Starter Plan',
    description: 'For individuals getting started.',
    interval: 'month',
    price: {type: 'fixed', amount: 900},
    benefits: [0],
    metadata: {tier: 'starter'},
  },
  {
    name: 'Pro Plan',
    description: 'Everything in Starter, plus priority support and the license key.',
    interval: 'month',
    price: {type: 'fixed', amount: 2900},
    benefits: [0, 1, 3],
    metadata: {tier: 'pro'},
  },
  {
    name: 'Pro Plan (yearly)',
    description: 'The Pro Plan, billed once a year.',
    interval: 'year',
    price: {type: 'fixed', amount: 29000},
    benefits: [0, 1, 3],
    metadata: {tier: 'pro'},
  },
  {
    name: 'Team Plan',
    description: 'For teams of up to 10 people.',
    interval: 'month',
    price: {type: 'fixed', amount: 9900},
    benefits: [0, 1, 3, 4],
    metadata: {tier: 'team'},
  },
  {name: 'Free Tier', description: 'Try the basics at no cost.', interval: 'month', price: {type: 'fixed', amount: 0}, benefits: [3]},
  {name: 'Icon Pack', description: '600 hand-drawn SVG icons.', interval: null, price: {type: 'fixed', amount: 1900}, benefits: [2]},
  {
    name: 'E-book: Shipping Software',
    description: 'A practical guide, PDF and EPUB.',
    interval: null,
    price: {type: 'fixed', amount: 2400},
    currency: 'eur',
    benefits: [2],
  },
  {
    name: 'Pay What You Want Donation',
    description: 'Support the project with any amount.',
    interval: null,
    price: {type: 'custom', min: 100, preset: 500, max: 100_000},
    benefits: [],
  },
  {name: 'Lifetime License', description: 'One payment, updates forever.', interval: null, price: {type: 'fixed', amount: 14900}, benefits: [1, 5]},
  {name: 'Sample Pack', description: 'A free sample of our assets.', interval: null, price: {type: 'fixed', amount: 0}, benefits: [2]},
  {
    name: 'Consulting Hour',
    description: 'One hour with an engineer.',
    interval: null,
    price: {type: 'fixed', amount: 15000},
    visibility: 'private',
    benefits: [0],
  },
  {name: 'Legacy Plan', description: 'No longer sold.', interval: 'month', price: {type: 'fixed', amount: 1500}, archived: true, benefits: [0]},
]

export function makeProducts(random: Random, count: number, start: number, benefits: BenefitRecord[]): ProductRecord[] {
  return Array.from({length: count}, (_, i) => {
    const entry = CATALOG[i % CATALOG.length]!
    const round = Math.floor(i / CATALOG.length)
    const id = uuid(random)
    const created = iso(start + DAY + i * 3_600_000)
    const base = {
      id: uuid(random),
      created_at: created,
      modified_at: null,
      source: 'catalog' as const,
      price_currency: entry.currency ?? 'usd',
      tax_behavior: null,
      is_archived: false,
      product_id: id,
    }
    const price: PriceRecord =
      entry.price.type === 'fixed'
        ? {...base, amount_type: 'fixed', price_amount: entry.price.amount}
        : {...base, amount_type: 'custom', minimum_amount: entry.price.min, maximum_amount: entry.price.max, preset_amount: entry.price.preset}
    return {
      id,
      created_at: created,
      modified_at: null,
      name: round === 0 ? entry.name : `${entry.name} ${round + 1}`,
      description: entry.description,
      visibility: entry.visibility ?? 'public',
      recurring_interval: entry.interval,
      recurring_interval_count: entry.interval ? 1 : null,
      is_archived: entry.archived ?? false,
      metadata: entry.metadata ?? {},
      prices: [price],
      benefit_ids: entry.benefits.map((b) => benefits[b]!.id),
    }
  })
}

/**
 * Products whose prices are the kinds the catalog above lacks (seat-based, metered), appended after every
 * other seeded record so no seeded id moves. They are dated before the catalog, so a default list
 * (newest first) still starts with the same products.
 */
export function makeProductVariants(random: Random, start: number, meterId: string): ProductRecord[] {
  const created = iso(start + DAY / 2)
  const product = (name: string, description: string, price: (id: string) => PriceRecord): ProductRecord => {
    const id = uuid(random)
    return {
      id,
      created_at: created,
      modified_at: null,
      name,
      description,
      visibility: 'public',
      recurring_interval: 'month',
      recurring_interval_count: 1,
      is_archived: false,
      metadata: {variant: 'seed'},
      prices: [price(id)],
      benefit_ids: [],
    }
  }
  const base = (productId: string) => ({
    id: uuid(random),
    created_at: created,
    modified_at: null,
    source: 'catalog' as const,
    price_currency: 'usd',
    tax_behavior: null,
    is_archived: false,
    product_id: productId,
  })
  return [
    product('Team Seats', 'Priced per seat, cheaper from the sixth seat.', (id) => ({
      ...base(id),
      amount_type: 'seat_based',
      seat_tiers: {
        tiers: [
          {min_seats: 1, max_seats: 5, price_per_seat: 1000},
          {min_seats: 6, max_seats: null, price_per_seat: 800},
        ],
        minimum_seats: 1,
        maximum_seats: null,
      },
    })),
    product('API Usage', 'Billed on the API calls of each month.', (id) => ({
      ...base(id),
      amount_type: 'metered_unit',
      unit_amount: '0.5',
      cap_amount: 100_000,
      meter_id: meterId,
    })),
  ]
}
