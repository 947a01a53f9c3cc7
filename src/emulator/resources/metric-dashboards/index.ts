// Metrics dashboards (server/polar/metrics): an organization's saved sets of metrics, listed (one JSON
// array, oldest first), created, read, renamed or given other metrics, and deleted. A small resource in
// one file: its record, its collection, its presenter and its routes on the toolkit.
import {z} from '../../core/zod.js'

import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import type {EnvData} from '../../core/model.js'
import type {Presented} from '../../core/present.js'
import {iso} from '../../core/seeding.js'
import {finder, getRoute, pathId, routeOf} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'

declare module '../../core/model.js' {
  interface EnvData {
    metric_dashboards: DashboardRecord[]
  }
}

export interface DashboardRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  metrics: string[]
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({metric_dashboards: [] as DashboardRecord[]})

const present = (ctx: Ctx, d: DashboardRecord): Presented<'MetricDashboardSchema'> => ({
  ...d,
  organization_id: ctx.store.data.organization.id,
})

const metrics = z.array(z.string()).max(10)
const create = z.object({name: z.string().min(1), metrics: metrics.default([]), organization_id: z.uuid().nullish()})
const update = z.object({name: z.string().min(1).nullish(), metrics: metrics.nullish()})

const findDashboard = finder('metric_dashboards')

export function register(r: Router): void {
  const list = routeOf('metrics:list_dashboards')
  r.get(list.path, list.auth, (ctx) => ok(ctx.store.all('metric_dashboards').map((d) => present(ctx, d))))
  getRoute(r, 'metrics:get_dashboard', findDashboard, (_view, d, ctx) => present(ctx, d))

  const created = routeOf('metrics:create_dashboard')
  r.post(created.path, created.auth, (ctx) => {
    const input = parse(create, ctx.body)
    const d = ctx.store.write(() =>
      ctx.store.insert('metric_dashboards', {id: uuid(), created_at: iso(ctx.now), modified_at: null, name: input.name, metrics: input.metrics}),
    )
    return ok(present(ctx, d), 201)
  })

  const one = routeOf('metrics:update_dashboard')
  r.patch(one.path, one.auth, (ctx) => {
    const id = pathId(ctx)
    const input = parse(update, ctx.body)
    const d = ctx.store.write(() => {
      const d = findDashboard(ctx, id)
      if (input.name) d.name = input.name
      if (input.metrics) d.metrics = input.metrics
      d.modified_at = iso(ctx.now)
      return d
    })
    return ok(present(ctx, d))
  })

  r.delete(one.path, one.auth, (ctx) => {
    const id = pathId(ctx)
    ctx.store.write(() => ctx.store.remove('metric_dashboards', findDashboard(ctx, id).id))
    return noContent()
  })
}
