// Organizations: an organization token sees only its own (server/polar/organization/endpoints.py).
import {z} from '../../core/zod.js'

import {ruleValidation, unauthorized} from '../../core/errors.js'
import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {byField} from '../../core/list.js'
import {found, getRoute, listRoute, notSortable, pathId} from '../../core/toolkit.js'
import type {Organization} from '../../core/model.js'
import * as present from '../../core/present.js'
import {parse} from '../../core/validate.js'

const organizationUpdate = z.object({
  name: z.string().min(3).max(64).nullish(),
  email: z.email().nullish(),
  website: z.url().nullish(),
  avatar_url: z.url().nullish(),
})

/** The token's own organization: any other is not found. */
const own = (ctx: Ctx, id: string): Organization => found(ctx.store.data.organization.id === id ? ctx.store.data.organization : undefined)

export function register(r: Router): void {
  listRoute(r, 'organizations:list', (ctx: Ctx) => [ctx.store.data.organization], {
    present: (_view, o) => present.organization(o),
    filters: {slug: byField('string', (o: Organization) => o.slug)},
    sorts: {
      created_at: (o) => o.created_at,
      slug: (o) => o.slug,
      name: (o) => o.name,
      next_review_threshold: notSortable("the service's account review threshold, which the emulator does not keep"),
      days_in_status: notSortable("days in the service's account review status, which the emulator does not keep"),
    },
    defaultSort: ['created_at'],
  })

  getRoute(r, 'organizations:get', own, (_view, o) => present.organization(o))

  // Creating an organization takes a user's token (OrganizationsCreate, allowed_subjects={User}); the
  // service has the route and answers any other token 401, not 405 (the router never gets here with one).
  r.post('/organizations/', 'user', () => {
    throw unauthorized()
  })

  r.patch('/organizations/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(organizationUpdate, ctx.body)
    own(ctx, id)
    const org = ctx.store.write(() => {
      const o = own(ctx, id)
      for (const key of ['name', 'email', 'website', 'avatar_url'] as const) {
        const value = input[key]
        if (value !== undefined) {
          if (key === 'name' && value === null) throw ruleValidation(['body', 'name'], 'Name cannot be empty.', null)
          ;(o as unknown as Record<string, unknown>)[key] = value
        }
      }
      o.modified_at = new Date(ctx.now).toISOString()
      return o
    })
    const body = present.organization(org)
    emit(ctx.env, 'organization.updated', body)
    return ok(body)
  })
}
