// Organizations: an organization token sees only its own (api-facts §3.1).
import {z} from 'zod'

import {notFound, ruleValidation} from '../../core/errors.js'
import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {byField, listRows} from '../../core/list.js'
import type {Organization} from '../../core/model.js'
import * as present from '../../core/present.js'
import {parse, pathUuid} from '../../core/validate.js'

const organizationUpdate = z.object({
  name: z.string().min(3).max(64).nullish(),
  email: z.email().nullish(),
  website: z.url().nullish(),
  avatar_url: z.url().nullish(),
})

function own(ctx: Ctx, id: string): Organization {
  const org = ctx.store.data.organization
  if (org.id !== id) throw notFound()
  return org
}

export function register(r: Router): void {
  r.get('/organizations/', 'organization', (ctx) =>
    ok(
      listRows(
        [ctx.store.data.organization],
        ctx.query,
        {
          filters: {slug: byField('string', (o: Organization) => o.slug)},
          sorts: {created_at: (o) => o.created_at, slug: (o) => o.slug, name: (o) => o.name},
          defaultSort: ['created_at'],
        },
        present.organization,
      ),
    ),
  )

  r.get('/organizations/:id', 'organization', (ctx) => ok(present.organization(own(ctx, pathUuid(ctx.params)))))

  r.patch('/organizations/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
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
