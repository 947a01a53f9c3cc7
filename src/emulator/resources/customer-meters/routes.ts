// Customer meters (the service's `customer_meter/` module): consumed, credited and balance per customer and
// meter, for the organization (/v1/customer-meters/) and for a customer in the portal (/v1/customer-portal/meters/).
import {notFound} from '../../core/errors.js'
import type {Ctx, Router} from '../../core/http.js'
import {byField, textSearch} from '../../core/list.js'
import {type Finder, found, getRoute, listRoute, organizationScope} from '../../core/toolkit.js'
import type {CustomerRecord} from '../customers/model.js'
import {customer} from '../customers/present.js'
import type {MeterRecord} from '../meters/model.js'
import {presentMeter} from '../meters/present.js'
import {customerMeterId, customerMeterState, type CustomerMeterState} from './state.js'

function customerMeters(ctx: Ctx, customers: CustomerRecord[], meters: MeterRecord[]) {
  const out: Array<{state: CustomerMeterState; customer: CustomerRecord; meter: MeterRecord}> = []
  for (const customer of customers) {
    for (const meter of meters) {
      const state = customerMeterState(ctx, customer, meter)
      if (state) out.push({state, customer, meter})
    }
  }
  return out.sort((a, b) => (a.state.created_at < b.state.created_at ? -1 : a.state.created_at > b.state.created_at ? 1 : 0))
}

type CustomerMeterRow = ReturnType<typeof customerMeters>[number]

function presentCustomerMeter(ctx: Ctx, row: CustomerMeterRow) {
  return {...row.state, customer: customer(ctx.view, row.customer), meter: presentMeter(ctx, row.meter)}
}

/** The portal's shape: no customer, and only the meter's id, name and times. */
function presentPortalMeter(_ctx: Ctx, row: CustomerMeterRow) {
  const m = row.meter
  return {...row.state, meter: {created_at: m.created_at, modified_at: m.modified_at, id: m.id, name: m.name}}
}

/** The customer meters of `customers` over the live meters, oldest first. */
const rowsOf = (ctx: Ctx, customers: CustomerRecord[]) =>
  customerMeters(
    ctx,
    customers,
    ctx.store.data.meters.filter((m) => m.archived_at === null),
  )

/** The sort keys the organization's list and the portal's share. */
const sorts = {
  created_at: (r: CustomerMeterRow) => r.state.created_at,
  modified_at: (r: CustomerMeterRow) => r.state.modified_at,
  meter_id: (r: CustomerMeterRow) => r.meter.id,
  meter_name: (r: CustomerMeterRow) => r.meter.name,
  consumed_units: (r: CustomerMeterRow) => r.state.consumed_units,
  credited_units: (r: CustomerMeterRow) => r.state.credited_units,
  balance: (r: CustomerMeterRow) => r.state.balance,
}

function findCustomerMeter(ctx: Ctx, customers: CustomerRecord[], id: string): CustomerMeterRow {
  for (const customer of customers) {
    for (const meter of ctx.store.data.meters) {
      if (customerMeterId(customer.id, meter.id) !== id) continue
      const state = customerMeterState(ctx, customer, meter)
      if (state) return {state, customer, meter}
    }
  }
  throw notFound()
}

const byId =
  (customers: (ctx: Ctx) => CustomerRecord[]): Finder<CustomerMeterRow> =>
  (ctx, id) =>
    findCustomerMeter(ctx, customers(ctx), id)

const liveCustomers = (ctx: Ctx) => ctx.store.all('customers').filter((c) => c.deleted_at === null)

const portalCustomer = (ctx: Ctx): CustomerRecord[] => [found(ctx.store.get('customers', ctx.auth.kind === 'customer' ? ctx.auth.customerId : ''))]

export function register(r: Router): void {
  listRoute(r, 'customer_meters:list', (ctx: Ctx) => rowsOf(ctx, liveCustomers(ctx)), {
    present: (_view, row, ctx) => presentCustomerMeter(ctx, row),
    filters: {
      organization_id: organizationScope,
      customer_id: byField('uuid', (r: CustomerMeterRow) => r.customer.id),
      external_customer_id: byField('string', (r: CustomerMeterRow) => r.customer.external_id),
      meter_id: byField('uuid', (r: CustomerMeterRow) => r.meter.id),
    },
    sorts: {...sorts, customer_id: (r) => r.customer.id, customer_name: (r) => r.customer.name},
    defaultSort: ['-modified_at'],
  })
  getRoute(r, 'customer_meters:get', byId(liveCustomers), (_view, row, ctx) => presentCustomerMeter(ctx, row))
  listRoute(r, 'customer_portal:customer_meters:list', (ctx: Ctx) => rowsOf(ctx, portalCustomer(ctx)), {
    present: (_view, row, ctx) => presentPortalMeter(ctx, row),
    filters: {meter_id: byField('uuid', (r: CustomerMeterRow) => r.meter.id), query: textSearch((r: CustomerMeterRow) => r.meter.name)},
    sorts,
    defaultSort: ['-modified_at'],
  })
  getRoute(r, 'customer_portal:customer_meters:get', byId(portalCustomer), (_view, row, ctx) => presentPortalMeter(ctx, row))
}
