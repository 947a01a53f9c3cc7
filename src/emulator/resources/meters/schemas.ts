// Meters' input schemas (the service's filter clauses and aggregations); events' `filter` query uses them too.
import {z} from '../../core/zod.js'

import {metadataSchema} from '../../core/validate.js'
import {OPERATORS} from './aggregate.js'
import type {FilterRecord} from './model.js'

const clauseSchema = z.object({
  property: z.string(),
  operator: z.enum(OPERATORS),
  value: z.union([z.string(), z.int(), z.boolean()]),
})
export const filterSchema: z.ZodType<FilterRecord> = z.lazy(() =>
  z.object({
    conjunction: z.enum(['and', 'or']),
    clauses: z.array(z.union([clauseSchema, filterSchema])),
  }),
)
const aggregationSchema = z.discriminatedUnion('func', [
  z.object({func: z.literal('count')}),
  z.object({func: z.enum(['sum', 'max', 'min', 'avg']), property: z.string()}),
  z.object({func: z.literal('unique'), property: z.string()}),
])
const UNITS = ['scalar', 'token', 'custom'] as const

export const meterCreate = z.object({
  name: z.string().min(3),
  filter: filterSchema,
  aggregation: aggregationSchema,
  unit: z.enum(UNITS).default('scalar'),
  custom_label: z.string().nullish(),
  custom_multiplier: z.int().gt(0).nullish(),
  metadata: metadataSchema.default({}),
  organization_id: z.uuid().nullish(),
})

export const meterUpdate = z.object({
  name: z.string().min(3).nullish(),
  filter: filterSchema.nullish(),
  aggregation: aggregationSchema.nullish(),
  unit: z.enum(UNITS).nullish(),
  custom_label: z.string().nullish(),
  custom_multiplier: z.int().gt(0).nullish(),
  metadata: metadataSchema.optional(),
  is_archived: z.boolean().nullish(),
})
