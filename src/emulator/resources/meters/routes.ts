// Meters (the service's `meter/` module): list, get, create, update (archive) and quantities per period.
import {checkOrganization, ok, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, listRows, textSearch} from '../../core/list.js'
import {parse, pathUuid} from '../../core/validate.js'
import type {MeterRecord} from './model.js'
import {presentMeter} from './present.js'
import {meterOf, quantitiesOf} from './quantities.js'
import {meterCreate, meterUpdate} from './schemas.js'

export function register(r: Router): void {
  r.get('/meters/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.data.meters,
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            query: textSearch((m: MeterRecord) => m.name),
            is_archived: {type: 'bool', match: (m: MeterRecord, [v]) => (m.archived_at !== null) === v},
          },
          sorts: {created_at: (m) => m.created_at, name: (m) => m.name},
          defaultSort: ['created_at'],
          metadata: (m) => m.metadata,
        },
        (m) => presentMeter(ctx, m),
      ),
    ),
  )

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
      ctx.store.data.meters.push(m)
      return m
    })
    return ok(presentMeter(ctx, meter), 201)
  })

  r.get('/meters/:id', 'organization', (ctx) => ok(presentMeter(ctx, meterOf(ctx, pathUuid(ctx.params)))))

  r.patch('/meters/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    meterOf(ctx, id)
    const input = parse(meterUpdate, ctx.body)
    const meter = ctx.store.write(() => {
      const m = meterOf(ctx, id)
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

  r.get('/meters/:id/quantities', 'organization', (ctx) => ok(quantitiesOf(ctx, meterOf(ctx, pathUuid(ctx.params)))))
}
