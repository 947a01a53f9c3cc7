// Custom checkout fields (server/polar/custom_field): text, number, date, checkbox and select fields,
// unique by slug in the organization; products attach them (../products/routes.ts).
import {z} from '../../core/zod.js'

import {ruleValidation} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, textSearch} from '../../core/list.js'
import {finder, getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import {metadataSchema, parse} from '../../core/validate.js'
import type {CustomFieldRecord} from './model.js'
import * as present from './present.js'

const TYPES = ['text', 'number', 'date', 'checkbox', 'select'] as const
const slug = z
  .string()
  .min(1)
  .max(250)
  .regex(/^[a-z0-9_-]+$/, "String should match pattern '^[a-z0-9_-]+$'")
const form = {form_label: z.string().min(1).optional(), form_help_text: z.string().min(1).optional(), form_placeholder: z.string().min(1).optional()}
const bounds = {ge: z.int().optional(), le: z.int().optional()}
const PROPERTIES = {
  text: z.object({...form, textarea: z.boolean().optional(), min_length: z.int().gte(0).optional(), max_length: z.int().gte(0).optional()}),
  number: z.object({...form, ...bounds}),
  date: z.object({...form, ...bounds}),
  checkbox: z.object({...form}),
  select: z.object({...form, options: z.array(z.object({value: z.string().min(1), label: z.string().min(1)})).min(1)}),
}
const create = z.discriminatedUnion(
  'type',
  TYPES.map((type) =>
    z.object({
      type: z.literal(type),
      slug,
      name: z.string().min(1),
      metadata: metadataSchema.default({}),
      organization_id: z.uuid().nullish(),
      properties: type === 'select' ? PROPERTIES[type] : (PROPERTIES[type] as z.ZodObject).default({}),
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
)
const update = z.discriminatedUnion(
  'type',
  TYPES.map((type) =>
    z.object({
      type: z.literal(type),
      slug: slug.nullish(),
      name: z.string().min(1).nullish(),
      metadata: metadataSchema.optional(),
      properties: PROPERTIES[type].nullish(),
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
)

type Create = {type: CustomFieldRecord['type']; slug: string; name: string; metadata: CustomFieldRecord['metadata']; properties: Record<string, unknown>}
type Update = {
  type: CustomFieldRecord['type']
  slug?: string | null
  name?: string | null
  metadata?: CustomFieldRecord['metadata']
  properties?: Record<string, unknown> | null
}

const findField = finder('custom_fields')

function checkSlug(ctx: Ctx, value: string, self?: string): void {
  if (ctx.store.all('custom_fields').some((f) => f.slug === value && f.id !== self)) {
    throw ruleValidation(['body', 'slug'], 'Custom field with this slug already exists.', value)
  }
}

export function register(r: Router): void {
  listRoute(r, 'custom-fields:list', (ctx: Ctx) => ctx.store.all('custom_fields'), {
    present: present.customField,
    filters: {
      organization_id: organizationScope,
      query: textSearch(
        (f: CustomFieldRecord) => f.name,
        (f) => f.slug,
      ),
      type: byField(TYPES, (f: CustomFieldRecord) => f.type),
    },
    sorts: {created_at: (f) => f.created_at, slug: (f) => f.slug, name: (f) => f.name, type: (f) => f.type},
    defaultSort: ['slug'],
  })
  getRoute(r, 'custom-fields:get', findField, present.customField)

  r.post('/custom-fields/', 'organization', (ctx) => {
    const input = parse(create, ctx.body) as Create
    const field = ctx.store.write(() => {
      checkSlug(ctx, input.slug)
      return ctx.store.insert('custom_fields', {
        id: uuid(),
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        metadata: input.metadata,
        type: input.type,
        slug: input.slug,
        name: input.name,
        properties: input.properties,
      })
    })
    return ok(present.customField(ctx.view, field), 201)
  })

  r.patch('/custom-fields/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(update, ctx.body) as Update
    const field = ctx.store.write(() => {
      const f = findField(ctx, id)
      if (input.type !== f.type) throw ruleValidation(['body', 'type'], "The type of a custom field can't be changed.", input.type)
      if (input.slug) {
        checkSlug(ctx, input.slug, f.id)
        f.slug = input.slug
      }
      if (input.name) f.name = input.name
      if (input.metadata) f.metadata = input.metadata
      if (input.properties) f.properties = input.properties
      f.modified_at = new Date(ctx.now).toISOString()
      return f
    })
    return ok(present.customField(ctx.view, field))
  })

  r.delete('/custom-fields/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    ctx.store.write(() => {
      findField(ctx, id)
      ctx.store.remove('custom_fields', id)
      // products no longer ask for it
      for (const p of ctx.store.all('products'))
        if (p.attached_custom_fields) p.attached_custom_fields = p.attached_custom_fields.filter((a) => a.custom_field_id !== id)
    })
    return noContent()
  })
}
