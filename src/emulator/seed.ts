// Deterministic demo data for a new store. The same sizes give the same ids, names and amounts;
// timestamps are placed relative to the moment the store is created. Orders cover every status,
// and paid orders are split into: no billing details, billing details without invoice, and
// invoice generated, so every rule of spec §3 can be tried on seeded data.
import {newDispute} from './routes/payments.js'
import {newLicenseKey} from './domain/grants.js'
import {buildOrder} from './domain/orders.js'
import {addInterval} from './domain/periods.js'
import {seededRandom, token, uuid, type Random} from './ids.js'
import type {
  Address, BenefitGrantRecord, BenefitRecord, CheckoutLinkRecord, CheckoutRecord, CustomerRecord, EnvData, EnvName,
  LicenseKeyRecord, OrderRecord, OrderStatus, PriceRecord, ProductRecord, RefundRecord, SeedOptions, SubscriptionRecord,
} from './model.js'

const DAY = 86_400_000
const HISTORY_DAYS = 180

const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Radia', 'Guido', 'Frances', 'Edsger', 'Hedy', 'Tim', 'Katherine', 'Donald', 'Sophie', 'John', 'Anita', 'Bjarne']
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Perlman', 'van Rossum', 'Allen', 'Dijkstra', 'Lamarr', 'Berners-Lee', 'Johnson', 'Knuth', 'Wilson', 'McCarthy', 'Borg', 'Stroustrup']
const PLACES: Address[] = [
  {country: 'US', line1: '1 Market Street', line2: null, postal_code: '94105', city: 'San Francisco', state: 'US-CA'},
  {country: 'DE', line1: 'Unter den Linden 5', line2: null, postal_code: '10117', city: 'Berlin', state: null},
  {country: 'FR', line1: '12 Rue de Rivoli', line2: null, postal_code: '75004', city: 'Paris', state: null},
  {country: 'GB', line1: '221B Baker Street', line2: null, postal_code: 'NW1 6XE', city: 'London', state: null},
  {country: 'SE', line1: 'Drottninggatan 71', line2: null, postal_code: '111 36', city: 'Stockholm', state: null},
  {country: 'CA', line1: '100 Queen St W', line2: 'Suite 4', postal_code: 'M5H 2N2', city: 'Toronto', state: 'CA-ON'},
]

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
  {name: 'Starter Plan', description: 'For individuals getting started.', interval: 'month', price: {type: 'fixed', amount: 900}, benefits: [0], metadata: {tier: 'starter'}},
  {name: 'Pro Plan', description: 'Everything in Starter, plus priority support and the license key.', interval: 'month', price: {type: 'fixed', amount: 2900}, benefits: [0, 1, 3], metadata: {tier: 'pro'}},
  {name: 'Pro Plan (yearly)', description: 'The Pro Plan, billed once a year.', interval: 'year', price: {type: 'fixed', amount: 29000}, benefits: [0, 1, 3], metadata: {tier: 'pro'}},
  {name: 'Team Plan', description: 'For teams of up to 10 people.', interval: 'month', price: {type: 'fixed', amount: 9900}, benefits: [0, 1, 3, 4], metadata: {tier: 'team'}},
  {name: 'Free Tier', description: 'Try the basics at no cost.', interval: 'month', price: {type: 'fixed', amount: 0}, benefits: [3]},
  {name: 'Icon Pack', description: '600 hand-drawn SVG icons.', interval: null, price: {type: 'fixed', amount: 1900}, benefits: [2]},
  {name: 'E-book: Shipping Software', description: 'A practical guide, PDF and EPUB.', interval: null, price: {type: 'fixed', amount: 2400}, currency: 'eur', benefits: [2]},
  {name: 'Pay What You Want Donation', description: 'Support the project with any amount.', interval: null, price: {type: 'custom', min: 100, preset: 500, max: 100_000}, benefits: []},
  {name: 'Lifetime License', description: 'One payment, updates forever.', interval: null, price: {type: 'fixed', amount: 14900}, benefits: [1, 5]},
  {name: 'Sample Pack', description: 'A free sample of our assets.', interval: null, price: {type: 'fixed', amount: 0}, benefits: [2]},
  {name: 'Consulting Hour', description: 'One hour with an engineer.', interval: null, price: {type: 'fixed', amount: 15000}, visibility: 'private', benefits: [0]},
  {name: 'Legacy Plan', description: 'No longer sold.', interval: 'month', price: {type: 'fixed', amount: 1500}, archived: true, benefits: [0]},
]

const BENEFITS: Array<Pick<BenefitRecord, 'type' | 'description' | 'properties' | 'metadata'>> = [
  {type: 'custom', description: 'Priority support', properties: {note: 'Write to support@example.com with your order number.'}, metadata: {channel: 'email', sla_hours: 24}},
  {type: 'license_keys', description: 'License key', properties: {prefix: 'TILL', expires: null, activations: {limit: 3, enable_customer_admin: true}, limit_usage: null}, metadata: {product_line: 'desktop'}},
  {type: 'downloadables', description: 'Downloadable assets', properties: {archived: {}, files: []}, metadata: {format: 'zip'}},
  {type: 'discord', description: 'Discord community', properties: {guild_id: '1100000000000000000', role_id: '1100000000000000001', kick_member: false, guild_token: 'emulated-discord-guild-token'}, metadata: {role: 'member'}},
  {type: 'github_repository', description: 'Private repository access', properties: {repository_owner: 'acme', repository_name: 'pro-toolkit', permission: 'pull'}, metadata: {repo: 'acme/pro-toolkit'}},
  {type: 'feature_flag', description: 'Beta features', properties: {}, metadata: {flag: 'beta', rollout: 100}},
]

/** Status of the i-th order: a fixed cycle, so every status appears from 20 orders on. */
const ORDER_CYCLE: OrderStatus[] = [
  'paid', 'pending', 'paid', 'refunded', 'paid', 'partially_refunded', 'paid', 'paid', 'draft', 'paid',
  'paid', 'paid', 'void', 'paid', 'partially_refunded', 'paid', 'paid', 'refunded', 'paid', 'paid',
]

const SUBSCRIPTION_CYCLE: Array<{status: SubscriptionRecord['status']; cancelAtPeriodEnd?: boolean}> = [
  {status: 'active'}, {status: 'active', cancelAtPeriodEnd: true}, {status: 'trialing'}, {status: 'past_due'},
  {status: 'canceled'}, {status: 'active'}, {status: 'unpaid'}, {status: 'incomplete'}, {status: 'active'},
]

const iso = (ms: number) => new Date(ms).toISOString()
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!


function makeBenefits(random: Random, start: number): BenefitRecord[] {
  return BENEFITS.map((b, i) => ({
    id: uuid(random),
    created_at: iso(start + i * 60_000),
    modified_at: null,
    ...b,
    selectable: true,
    deletable: true,
    is_deleted: false,
    visibility: 'public',
  }))
}

function makeProducts(random: Random, count: number, start: number, benefits: BenefitRecord[]): ProductRecord[] {
  return Array.from({length: count}, (_, i) => {
    const entry = CATALOG[i % CATALOG.length]!
    const round = Math.floor(i / CATALOG.length)
    const id = uuid(random)
    const created = iso(start + DAY + i * 3_600_000)
    const base = {id: uuid(random), created_at: created, modified_at: null, source: 'catalog' as const, price_currency: entry.currency ?? 'usd', tax_behavior: null, is_archived: false, product_id: id}
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

function makeCustomers(random: Random, count: number, start: number, end: number): CustomerRecord[] {
  const step = (end - start) / Math.max(1, count)
  return Array.from({length: count}, (_, i) => {
    const first = FIRST[i % FIRST.length]!
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!
    const n = Math.floor(i / (FIRST.length * LAST.length))
    const email = `${first}.${last}${n ? n + 1 : ''}`.toLowerCase().replace(/[^a-z0-9.]/g, '') + '@example.com'
    const withBilling = i % 3 !== 2
    return {
      id: uuid(random),
      created_at: iso(start + i * step + Math.floor(random() * step * 0.5)),
      modified_at: null,
      metadata: i % 4 === 0 ? {segment: 'enterprise'} : ({} as Record<string, string>),
      external_id: i % 3 === 1 ? null : `usr_${String(i + 1).padStart(5, '0')}`,
      email,
      email_verified: true,
      type: 'individual',
      name: `${first} ${last}`,
      billing_name: withBilling ? `${first} ${last}` : null,
      billing_address: withBilling ? PLACES[i % PLACES.length]! : null,
      tax_id: null,
      locale: null,
      deleted_at: null,
    }
  })
}

export function createEnvData(environment: EnvName, seed: SeedOptions, now: number): EnvData {
  const random = seededRandom(environment === 'production' ? 0x7111 : 0x5a4d)
  const start = now - (HISTORY_DAYS + 30) * DAY
  const sandbox = environment === 'sandbox'
  const data: EnvData = {
    schema: 1,
    environment,
    seed,
    version: 0,
    organization: {
      id: uuid(random),
      created_at: iso(start),
      modified_at: null,
      name: sandbox ? 'Acme Software (Sandbox)' : 'Acme Software',
      slug: sandbox ? 'acme-sandbox' : 'acme',
      avatar_url: null,
      email: 'billing@acme.example',
      website: 'https://acme.example',
    },
    tokens: [{token: token('polar_oat_'), kind: 'organization', subject_id: '', created_at: iso(now), expires_at: null}],
    products: [],
    benefits: [],
    customers: [],
    orders: [],
    refunds: [],
    subscriptions: [],
    checkouts: [],
    checkout_links: [],
    benefit_grants: [],
    license_keys: [],
    license_key_activations: [],
    webhook_endpoints: [],
    webhook_events: [],
    webhook_deliveries: [],
    customer_sessions: [],
    discounts: [],
    disputes: [],
    custom_fields: [],
    files: [],
    invoice_counter: 0,
  }
  data.tokens[0]!.subject_id = data.organization.id
  data.benefits = makeBenefits(random, start)
  data.products = makeProducts(random, Math.max(1, seed.products), start, data.benefits)
  const ordersStart = now - HISTORY_DAYS * DAY
  data.customers = makeCustomers(random, Math.max(1, seed.customers), start + 2 * DAY, ordersStart)
  seedOrders(data, random, seed.orders, ordersStart, now)
  seedCheckouts(data, random, now)
  seedGrants(data, random, now)
  seedDispute(data, random, now)
  seedExtras(data, random, start)
  return data
}

/** Two discounts and a custom field, drawn last so earlier seed data is unchanged. */
function seedExtras(data: EnvData, random: Random, start: number): void {
  const at = iso(start + DAY)
  const common = {created_at: at, modified_at: null, starts_at: null, ends_at: null, redemptions_count: 0, product_ids: [], deleted_at: null}
  data.discounts.push(
    {...common, id: uuid(random), metadata: {campaign: 'welcome'}, name: 'Welcome 20%', code: 'WELCOME20', type: 'percentage', duration: 'once', duration_in_months: null, basis_points: 2000, amounts: null, max_redemptions: null},
    {...common, id: uuid(random), metadata: {}, name: '$5 off for 3 months', code: null, type: 'fixed', duration: 'repeating', duration_in_months: 3, basis_points: null, amounts: {usd: 500}, max_redemptions: 100},
  )
  data.custom_fields.push({id: uuid(random), created_at: at, modified_at: null, metadata: {}, type: 'text', slug: 'company', name: 'Company', properties: {form_label: 'Company name'}})
}

/** One dispute awaiting a response, on the oldest paid order (drawn last, so earlier seed data is unchanged). */
function seedDispute(data: EnvData, random: Random, now: number): void {
  const order = data.orders.find((o) => o.status === 'paid' && o.subtotal_amount - o.discount_amount > 0)
  if (order) data.disputes.push(newDispute(order, now - 2 * DAY, uuid(random), 'product_not_received'))
}

function seedOrders(data: EnvData, random: Random, count: number, start: number, now: number): void {
  const sellable = data.products.filter((p) => !p.is_archived)
  const subscriptions = new Map<string, SubscriptionRecord>()
  const step = (now - 60_000 - start) / Math.max(1, count)
  for (let i = 0; i < count; i++) {
    const at = Math.floor(start + i * step + random() * step * 0.8)
    const customer = data.customers[Math.floor(random() * data.customers.length)]!
    const product = i % 50 === 49 ? data.products.find((p) => p.is_archived) ?? sellable[0]! : sellable[Math.floor(random() * sellable.length)]!
    const price = product.prices[0]!
    const status = ORDER_CYCLE[i % ORDER_CYCLE.length]!
    const billed = i % 4 !== 0 && status !== 'draft'
    const address = billed ? (customer.billing_address ?? PLACES[i % PLACES.length]!) : null
    const amount = price.amount_type === 'custom' ? price.minimum_amount + Math.floor(random() * 50) * 100 : undefined

    let subscription: SubscriptionRecord | undefined
    let billingReason: OrderRecord['billing_reason'] = 'purchase'
    if (product.recurring_interval) {
      const key = `${customer.id}:${product.id}`
      subscription = subscriptions.get(key)
      billingReason = subscription ? 'subscription_cycle' : 'subscription_create'
      if (!subscription) {
        subscription = newSubscription(data, random, customer.id, product, price, at, now, subscriptions.size)
        subscriptions.set(key, subscription)
        data.subscriptions.push(subscription)
      }
    }
    const order = buildOrder(data, {
      now: at,
      customerId: customer.id,
      product,
      price,
      amount,
      discountAmount: i % 10 === 3 ? Math.round((amount ?? (price.amount_type === 'fixed' ? price.price_amount : 0)) * 0.2) : 0,
      billingReason,
      subscriptionId: subscription?.id ?? null,
      billingName: billed ? (customer.billing_name ?? customer.name) : null,
      billingAddress: address,
      status: status === 'pending' ? 'pending' : status,
      random,
    })
    if (status === 'pending') order.paid_at = null // waiting on the customer's payment: stays pending
    if (billed && status !== 'pending' && i % 2 === 1) {
      order.invoice_requested_at = iso(at + 60_000)
      order.invoice_ready_at = order.invoice_requested_at
      order.invoice_event_sent = true
    }
    if (status === 'refunded' || status === 'partially_refunded') refundOrder(data, random, order, status, at, now)
    data.orders.push(order)
  }
}

function newSubscription(data: EnvData, random: Random, customerId: string, product: ProductRecord, price: PriceRecord, at: number, now: number, n: number): SubscriptionRecord {
  const shape = SUBSCRIPTION_CYCLE[n % SUBSCRIPTION_CYCLE.length]!
  const interval = product.recurring_interval!
  let periodStart = at
  while (addInterval(periodStart, interval, 1) < now) periodStart = addInterval(periodStart, interval, 1)
  const periodEnd = addInterval(periodStart, interval, 1)
  const canceled = shape.status === 'canceled'
  const endedAt = canceled ? Math.min(now - DAY, addInterval(at, interval, 1)) : null
  return {
    id: uuid(random),
    created_at: iso(at),
    modified_at: null,
    amount: price.amount_type === 'fixed' ? price.price_amount : price.minimum_amount,
    currency: price.price_currency,
    recurring_interval: interval,
    recurring_interval_count: product.recurring_interval_count ?? 1,
    status: shape.status,
    current_period_start: iso(canceled ? at : periodStart),
    current_period_end: iso(canceled ? addInterval(at, interval, 1) : periodEnd),
    trial_start: shape.status === 'trialing' ? iso(periodStart) : null,
    trial_end: shape.status === 'trialing' ? iso(periodEnd) : null,
    cancel_at_period_end: shape.cancelAtPeriodEnd ?? false,
    canceled_at: canceled ? iso(endedAt!) : shape.cancelAtPeriodEnd ? iso(now - 3 * DAY) : null,
    started_at: shape.status === 'incomplete' ? null : iso(at),
    ends_at: canceled ? iso(endedAt!) : shape.cancelAtPeriodEnd ? iso(periodEnd) : null,
    ended_at: canceled ? iso(endedAt!) : null,
    customer_id: customerId,
    product_id: product.id,
    discount_id: null,
    checkout_id: null,
    customer_cancellation_reason: canceled || shape.cancelAtPeriodEnd ? pick(random, ['too_expensive', 'unused', 'switched_service', 'missing_features']) : null,
    customer_cancellation_comment: canceled ? 'Moving to another tool.' : null,
    metadata: {},
    price_ids: [price.id],
  }
}

function refundOrder(data: EnvData, random: Random, order: OrderRecord, status: OrderStatus, at: number, now: number): void {
  const net = order.subtotal_amount - order.discount_amount
  if (net === 0) {
    order.status = 'paid'
    return
  }
  const amount = status === 'refunded' ? net : Math.max(1, Math.floor(net * (0.3 + random() * 0.3)))
  const tax = Math.round((order.tax_amount * amount) / net)
  order.refunded_amount = amount
  order.refunded_tax_amount = tax
  const when = Math.min(now - 1000, at + 2 * DAY)
  const refund: RefundRecord = {
    id: uuid(random),
    created_at: iso(when),
    modified_at: null,
    metadata: {},
    status: 'succeeded',
    reason: pick(random, ['customer_request', 'duplicate', 'service_disruption', 'satisfaction_guarantee']),
    comment: null,
    amount,
    tax_amount: tax,
    currency: order.currency,
    order_id: order.id,
    subscription_id: order.subscription_id,
    customer_id: order.customer_id,
    revoke_benefits: false,
  }
  order.modified_at = refund.created_at
  data.refunds.push(refund)
}

function seedCheckouts(data: EnvData, random: Random, now: number): void {
  const sellable = data.products.filter((p) => !p.is_archived && p.visibility === 'public')
  const checkouts: CheckoutRecord[] = []
  const count = Math.min(12, Math.max(3, Math.floor(data.orders.length / 5)))
  for (let i = 0; i < count; i++) {
    const product = sellable[i % sellable.length]!
    const price = product.prices[0]!
    const customer = i % 3 === 0 ? data.customers[i % data.customers.length]! : null
    const created = now - (count - i) * 3 * 3_600_000
    const status: CheckoutRecord['status'] = i % 4 === 0 ? 'expired' : i % 4 === 1 ? 'succeeded' : 'open'
    checkouts.push({
      id: uuid(random),
      created_at: iso(status === 'expired' ? created - 2 * DAY : created),
      modified_at: null,
      status: status === 'expired' ? 'open' : status,
      client_secret: token('polar_c_', random),
      expires_at: iso((status === 'expired' ? created - 2 * DAY : created) + DAY),
      success_url: null,
      return_url: null,
      amount: price.amount_type === 'fixed' ? price.price_amount : (price.preset_amount ?? price.minimum_amount),
      discount_amount: 0,
      tax_amount: null,
      currency: price.price_currency,
      product_ids: [product.id],
      product_id: product.id,
      product_price_id: price.id,
      discount_id: null,
      subscription_id: null,
      customer_id: customer?.id ?? null,
      external_customer_id: customer?.external_id ?? null,
      customer_name: customer?.name ?? null,
      customer_email: customer?.email ?? (status === 'succeeded' ? `buyer${i}@example.com` : null),
      customer_billing_name: null,
      customer_billing_address: null,
      customer_tax_id: null,
      customer_metadata: {},
      require_billing_address: false,
      allow_discount_codes: true,
      is_business_customer: false,
      metadata: i % 2 === 0 ? {campaign: 'spring'} : {},
      order_id: null,
    })
  }
  data.checkouts = checkouts.sort((a, b) => a.created_at.localeCompare(b.created_at))
  const links: CheckoutLinkRecord[] = sellable.slice(0, 3).map((p, i) => ({
    id: uuid(random),
    created_at: iso(now - (30 - i) * DAY),
    modified_at: null,
    client_secret: token('polar_cl_', random),
    label: `${p.name} link`,
    success_url: null,
    return_url: null,
    allow_discount_codes: true,
    require_billing_address: false,
    discount_id: null,
    metadata: {},
    product_ids: [p.id],
  }))
  data.checkout_links = links
}

/** Benefit grants (and license keys) for active subscriptions and paid one-time orders. */
function seedGrants(data: EnvData, random: Random, now: number): void {
  const granted = new Set<string>()
  const grants: BenefitGrantRecord[] = []
  const keys: LicenseKeyRecord[] = []
  const products = new Map(data.products.map((p) => [p.id, p]))
  const benefits = new Map(data.benefits.map((b) => [b.id, b]))
  const grant = (customerId: string, benefitId: string, at: string, source: {subscription_id?: string; order_id?: string}, revokedAt: string | null) => {
    const key = `${customerId}:${benefitId}`
    if (granted.has(key)) return
    granted.add(key)
    const benefit = benefits.get(benefitId)!
    const grantRow: BenefitGrantRecord = {
      id: uuid(random),
      created_at: at,
      modified_at: null,
      granted_at: at,
      revoked_at: revokedAt,
      subscription_id: source.subscription_id ?? null,
      order_id: source.order_id ?? null,
      customer_id: customerId,
      benefit_id: benefitId,
      properties: {},
    }
    if (benefit.type === 'license_keys') {
      const key = newLicenseKey(benefit, customerId, at, random)
      if (revokedAt) key.status = 'revoked'
      keys.push(key)
      grantRow.properties = {license_key_id: key.id, display_key: `****-${key.key.slice(-4)}`}
    }
    grants.push(grantRow)
  }
  for (const s of data.subscriptions) {
    const live = s.status === 'active' || s.status === 'trialing' || s.status === 'past_due'
    const revoked = s.status === 'canceled' ? s.ended_at : null
    if (!live && !revoked) continue
    for (const b of products.get(s.product_id)?.benefit_ids ?? []) grant(s.customer_id, b, s.created_at, {subscription_id: s.id}, revoked)
  }
  for (const o of data.orders) {
    if (o.subscription_id || !o.product_id || (o.status !== 'paid' && o.status !== 'partially_refunded')) continue
    for (const b of products.get(o.product_id)?.benefit_ids ?? []) grant(o.customer_id, b, o.created_at, {order_id: o.id}, null)
  }
  data.benefit_grants = grants.sort((a, b) => a.created_at.localeCompare(b.created_at))
  data.license_keys = keys.sort((a, b) => a.created_at.localeCompare(b.created_at))
  void now
}
