// Customer meters (the service's `customer_meter/` module): consumed, credited and balance per customer and
// meter, for the organization (/v1/customer-meters/) and for a customer in the portal (/v1/customer-portal/meters/).
import {notFound} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {byField, listRows, textSearch} from '../../core/list.js'
import {pathUuid} from '../../core/validate.js'
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

function listCustomerMeters(ctx: Ctx, customers: CustomerRecord[], shape: (ctx: Ctx, row: CustomerMeterRow) => unknown = presentCustomerMeter) {
  const rows = customerMeters(
    ctx,
    customers,
    ctx.store.data.meters.filter((m) => m.archived_at === null),
  )
  return listRows(
    rows,
    ctx.query,
    {
      filters: {
        organization_id: byField('uuid', () => ctx.store.data.organization.id),
        customer_id: byField('uuid', (r: CustomerMeterRow) => r.customer.id),
        external_customer_id: byField('string', (r: CustomerMeterRow) => r.customer.external_id),
        meter_id: byField('uuid', (r: CustomerMeterRow) => r.meter.id),
        query: textSearch((r: CustomerMeterRow) => r.meter.name),
      },
      sorts: {
        created_at: (r) => r.state.created_at,
        modified_at: (r) => r.state.modified_at,
        customer_id: (r) => r.customer.id,
        customer_name: (r) => r.customer.name,
        meter_id: (r) => r.meter.id,
        meter_name: (r) => r.meter.name,
        consumed_units: (r) => r.state.consumed_units,
        credited_units: (r) => r.state.credited_units,
        balance: (r) => r.state.balance,
      },
      defaultSort: ['-modified_at'],
    },
    (r) => shape(ctx, r),
  )
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

const liveCustomers = (ctx: Ctx) => ctx.store.all('customers').filter((c) => c.deleted_at === null)

function portalCustomer(ctx: Ctx): CustomerRecord {
  const id = ctx.auth.kind === 'customer' ? ctx.auth.customerId : ''
  const customer = ctx.store.get('customers', id)
  if (!customer) throw notFound()
  return customer
}

export function register(r: Router): void {
  r.get('/customer-meters/', 'organization', (ctx) => ok(listCustomerMeters(ctx, liveCustomers(ctx))))
  r.get('/customer-meters/:id', 'organization', (ctx) => ok(presentCustomerMeter(ctx, findCustomerMeter(ctx, liveCustomers(ctx), pathUuid(ctx.params)))))
  r.get('/customer-portal/meters/', 'customer', (ctx) => ok(listCustomerMeters(ctx, [portalCustomer(ctx)], presentPortalMeter)))
  r.get('/customer-portal/meters/:id', 'customer', (ctx) => ok(presentPortalMeter(ctx, findCustomerMeter(ctx, [portalCustomer(ctx)], pathUuid(ctx.params)))))
}
