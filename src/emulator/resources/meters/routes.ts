// Meters (the service's `meter/` module): list, get, create, update (archive) and quantities per period.
// Once a meter has aggregated events its filter and aggregation no longer change, and a meter still
// billed by an active product or credited by a benefit cannot be archived (meter/service.py).
import {ruleValidation} from '../../core/errors.js'
import {checkOrganization, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {textSearch} from '../../core/list.js'
import {getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import type {MeterRecord} from './model.js'
import {presentMeter} from './present.js'
import {hasAggregated, meterOf, quantitiesOf} from './quantities.js'
import {meterCreate, meterUpdate} from './schemas.js'

/** The service's refusals of an update: a filter or aggregation once aggregating, an archive while in use. */
function checkUpdate(ctx: Ctx, meter: MeterRecord, archive: boolean): void {
  const body = (ctx.body ?? {}) as Record<string, unknown>
  const fixed = (['filter', 'aggregation'] as const).filter((f) => Object.hasOwn(body, f))
  if (fixed.length > 0 && hasAggregated(ctx, meter)) {
    const msg = "This field can't be updated because the meter is already aggregating events."
    throw ruleValidation(fixed.map((f) => ({type: 'forbidden', loc: ['body', f], msg, input: body[f]})))
  }
  if (!archive) return
  const billed = ctx.store
    .all('products')
    .some((p) => !p.is_archived && p.prices.some((x) => x.amount_type === 'metered_unit' && !x.is_archived && x.meter_id === meter.id))
  if (billed) throw ruleValidation(['body', 'is_archived'], 'Cannot archive meter that is still attached to active products', true)
  const credited = ctx.store
    .all('benefits')
    .some((b) => !b.is_deleted && b.type === 'meter_credit' && (b.properties as {meter_id?: unknown}).meter_id === meter.id)
  if (credited) throw ruleValidation(['body', 'is_archived'], 'Cannot archive meter that is still referenced by active benefits', true)
}

export function register(r: Router): void {
  listRoute(r, 'meters:list', (ctx: Ctx) => ctx.store.all('meters'), {
    present: (_view, m, ctx) => presentMeter(ctx, m),
    filters: {
      organization_id: organizationScope,
      query: textSearch((m: MeterRecord) => m.name),
      is_archived: {type: 'bool', match: (m: MeterRecord, [v]) => (m.archived_at !== null) === v},
    },
    sorts: {created_at: (m) => m.created_at, name: (m) => m.name},
    defaultSort: ['created_at'],
    metadata: (m) => m.metadata,
  })

  r.post('/meters/', 'organization', (ctx) => {
    const input = parse(meterCreate, ctx.body)
    checkOrganization(ctx, input.organization_id)
    const meter = ctx.store.write(() => {
      const m: MeterRecord = {
        id: uuid(),
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        name: input.name,
        unit: input.unit,
        custom_label: input.custom_label ?? null,
        custom_multiplier: input.custom_multiplier ?? null,
        filter: input.filter,
        aggregation: input.aggregation,
        metadata: input.metadata,
        archived_at: null,
      }
      ctx.store.insert('meters', m)
      return m
    })
    return ok(presentMeter(ctx, meter), 201)
  })

  getRoute(r, 'meters:get', meterOf, (_view, m, ctx) => presentMeter(ctx, m))

  r.patch('/meters/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    meterOf(ctx, id)
    const input = parse(meterUpdate, ctx.body)
    const meter = ctx.store.write(() => {
      const m = meterOf(ctx, id)
      checkUpdate(ctx, m, input.is_archived === true)
      const now = new Date(ctx.now).toISOString()
      if (input.name != null) m.name = input.name
      if (input.filter != null) m.filter = input.filter
      if (input.aggregation != null) m.aggregation = input.aggregation
      if (input.unit != null) m.unit = input.unit
      if (input.custom_label !== undefined) m.custom_label = input.custom_label
      if (input.custom_multiplier !== undefined) m.custom_multiplier = input.custom_multiplier
      if (input.metadata !== undefined) m.metadata = input.metadata
      if (input.is_archived != null) m.archived_at = input.is_archived ? (m.archived_at ?? now) : null
      m.modified_at = now
      return m
    })
    return ok(presentMeter(ctx, meter))
  })

  r.get('/meters/:id/quantities', 'organization', (ctx) => ok(quantitiesOf(ctx, meterOf(ctx, pathId(ctx)))))
}
