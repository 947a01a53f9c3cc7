// Every resource of the emulated API, one line each. A resource is a folder `resources/<name>/` with:
//   model.ts    its stored records; it adds its collections to the store's `EnvData` by declaration merging
//               (`declare module '../../core/model.js' { interface EnvData { things: ThingRecord[] } }`)
//               and exports `collections()`, those collections empty;
//   present.ts  its presenters (stored record -> the API's wire shape);
//   routes.ts   `register(router)`, its routes (split further by concern when long);
//   index.ts    re-exports `register`, `collections` and, if it has timed changes, `settle` (see `Resource`).
// Adding a resource is adding its folder and its line below: new stores get its collections empty, and a
// store saved before it existed loads with them empty too (`completeData`).
import type {Env, Resource, Router} from '../core/http.js'
import type {EnvData} from '../core/model.js'
import * as benefits from './benefits/index.js'
import * as checkouts from './checkouts/index.js'
import * as clock from './clock/index.js'
import * as customerSeats from './customer-seats/index.js'
import * as customerSessions from './customer-sessions/index.js'
import * as control from './control/index.js'
import * as customerMeters from './customer-meters/index.js'
import * as customers from './customers/index.js'
import * as customFields from './custom-fields/index.js'
import * as discounts from './discounts/index.js'
import * as disputes from './disputes/index.js'
import * as exports from './exports/index.js'
import * as files from './files/index.js'
import * as eventTypes from './event-types/index.js'
import * as events from './events/index.js'
import * as licenseKeys from './license-keys/index.js'
import * as listen from './listen/index.js'
import * as members from './members/index.js'
import * as meters from './meters/index.js'
import * as metrics from './metrics/index.js'
import * as metricDashboards from './metric-dashboards/index.js'
import * as oauth2 from './oauth2/index.js'
import * as orders from './orders/index.js'
import * as organizations from './organizations/index.js'
import * as payments from './payments/index.js'
import * as portal from './portal/index.js'
import * as products from './products/index.js'
import * as refunds from './refunds/index.js'
import * as subscriptions from './subscriptions/index.js'
import * as trigger from './trigger/index.js'
import * as webhooks from './webhooks/index.js'

const resources: Resource[] = [
  products,
  benefits,
  checkouts,
  orders,
  refunds,
  subscriptions,
  customerSeats,
  customers,
  members,
  customerSessions,
  licenseKeys,
  webhooks,
  organizations,
  portal,
  metrics,
  metricDashboards,
  oauth2,
  discounts,
  payments,
  disputes,
  customFields,
  files,
  exports,
  events,
  eventTypes,
  meters,
  customerMeters,
  listen,
  trigger,
  control,
  clock,
]

export function register(router: Router): void {
  for (const r of resources) r.register(router)
}

/** `data` with every resource's collections it lacks added, empty (keys it has keep their place). */
export function completeData(data: Partial<EnvData>): EnvData {
  const record = data as Record<string, unknown>
  for (const r of resources) {
    for (const [key, empty] of Object.entries(r.collections?.() ?? {})) if (!(key in record)) record[key] = empty
  }
  return data as EnvData
}

/** Raises the events of every resource's timed changes that have fallen due. */
export function settle(env: Env): void {
  // while the clock walks, the other timed changes wait for its end: settled between its legs, they would take
  // the moments the legs happen to stop at, and the same walk would not make the same events
  if (clock.walking(env)) return
  for (const r of resources) r.settle?.(env)
}
