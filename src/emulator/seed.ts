// Deterministic demo data for a new store. The same sizes give the same ids, names and amounts;
// timestamps are placed relative to the moment the store is created. Orders cover every status,
// and paid orders are split into: no billing details, billing details without invoice, and
// invoice generated, so every rule of an order's invoice (server/polar/order/service.py) can be
// tried on seeded data.
import {seededRandom, token, uuid} from './core/ids.js'
import type {EnvData, EnvName, SeedOptions} from './core/model.js'
import {DAY, iso} from './core/seeding.js'
import {makeBenefits, makeBenefitVariants, seedGrants} from './resources/benefits/seed.js'
import {seedCheckouts, seedPastCheckouts} from './resources/checkouts/seed.js'
import {seedCustomFields} from './resources/custom-fields/seed.js'
import {seedSeats} from './resources/customer-seats/seed.js'
import {makeCustomers, makeCustomerVariants} from './resources/customers/seed.js'
import {seedDiscounts} from './resources/discounts/seed.js'
import {seedDisputes} from './resources/disputes/seed.js'
import {seedMembers} from './resources/members/seed.js'
import {completeData} from './resources/index.js'
import {seedOrders} from './resources/orders/seed.js'
import {makeProductVariants, makeProducts} from './resources/products/seed.js'
import {seedWebhookEndpoints} from './resources/webhooks/seed.js'

/** 18 months of history, so that metrics and their charts have a real shape. */
const HISTORY_DAYS = 548

export function createEnvData(environment: EnvName, seed: SeedOptions, now: number, organizationToken?: string): EnvData {
  const random = seededRandom(environment === 'production' ? 0x7111 : 0x5a4d)
  const start = now - (HISTORY_DAYS + 30) * DAY
  const sandbox = environment === 'sandbox'
  // The collections in the order stores have always been written in (so seeded files stay the same);
  // a resource whose collection is not named here gets it empty from `completeData`.
  const data = completeData({
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
      // support opts an organization in; the demo one is, so that draft orders can be tried at once
      off_session_charges_enabled: true,
    },
    // a new one, unless the seed is made again from a saved manifest (which keeps its token)
    tokens: [{token: organizationToken ?? token('polar_oat_'), kind: 'organization', subject_id: '', created_at: iso(now), expires_at: null}],
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
    invoice_counter: 0,
  })
  data.tokens[0]!.subject_id = data.organization.id
  data.benefits = makeBenefits(random, start)
  data.products = makeProducts(random, Math.max(1, seed.products), start, data.benefits)
  const ordersStart = now - HISTORY_DAYS * DAY
  data.customers = makeCustomers(random, Math.max(1, seed.customers), start + 2 * DAY, ordersStart)
  seedOrders(data, random, seed.orders, ordersStart, now)
  seedCheckouts(data, random, now)
  seedGrants(data, random, now)
  seedPastCheckouts(data, seededRandom(environment === 'production' ? 0xc4ec : 0xc5ed), now)
  // Added later: each draws from its own sequence, so the records above keep their ids.
  seedDiscounts(data, seededRandom(environment === 'production' ? 0xd15c : 0xd25c), start)
  seedCustomFields(data, seededRandom(environment === 'production' ? 0xcf01 : 0xcf02), start)
  seedDisputes(data, seededRandom(environment === 'production' ? 0xd1e5 : 0xd2e5), now)
  seedVariants(data, seededRandom(environment === 'production' ? 0x7a71 : 0x7a5d), start)
  seedMembers(data, seededRandom(environment === 'production' ? 0x3e31 : 0x3e32))
  seedSeats(data, seededRandom(environment === 'production' ? 0x5ea7 : 0x5ea8), now)
  seedDashboard(data, seededRandom(environment === 'production' ? 0xda51 : 0xda52), start)
  seedWebhookEndpoints(data, seededRandom(environment === 'production' ? 0x3b51 : 0x3b52), start)
  inCreationOrder(data)
  return data
}

/**
 * Each collection in ascending created_at order, as lists expect of the store (a list by created_at walks
 * the rows as they are): the variants, appended last to keep every other id, are dated before others.
 * A stable sort, so rows made at the same moment keep their order.
 */
function inCreationOrder(data: EnvData): void {
  for (const rows of Object.values(data)) {
    if (!Array.isArray(rows) || !rows.every((r) => typeof (r as {created_at?: unknown})?.created_at === 'string')) continue
    ;(rows as Array<{created_at: string}>).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
  }
}

/** A saved metrics dashboard, so that `till metrics dashboards list` and `till report --dashboard` show one at once. */
function seedDashboard(data: EnvData, random: () => number, start: number): void {
  data.metric_dashboards.push({
    id: uuid(random),
    created_at: iso(start + DAY),
    modified_at: null,
    name: 'Growth',
    metrics: ['revenue', 'new_subscriptions', 'monthly_recurring_revenue', 'churned_subscriptions'],
  })
}

/**
 * Records of every kind the SDK models that the demo data above lacks (seat-based and metered prices, a
 * meter-credit benefit, a team customer), with their own random stream and appended last, so that every
 * other seeded id and order stays the same.
 */
function seedVariants(data: EnvData, random: () => number, start: number): void {
  const meterId = uuid(random)
  // the meter the metered price bills and the meter credit tops up: counts `api.call` events
  data.meters.push({
    id: meterId,
    created_at: iso(start + DAY / 2),
    modified_at: null,
    name: 'API calls',
    unit: 'scalar',
    custom_label: null,
    custom_multiplier: null,
    filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'api.call'}]},
    aggregation: {func: 'count'},
    metadata: {},
    archived_at: null,
  })
  data.benefits.push(...makeBenefitVariants(random, start, meterId))
  data.products.push(...makeProductVariants(random, start, meterId))
  data.customers.push(...makeCustomerVariants(random, start + 2 * DAY))
}
