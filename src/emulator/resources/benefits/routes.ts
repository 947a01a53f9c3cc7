// Benefits and their grants (server/polar/benefit/endpoints.py, server/polar/benefit/grant/).
import {createHash} from '../../core/crypto.js'

import {z} from '../../core/zod.js'

import {notPermitted, ruleValidation} from '../../core/errors.js'
import {checkOrganization, emit, noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, textSearch} from '../../core/list.js'
import {finder, getRoute, listRoute, notSortable, organizationScope, pathId, type Rows} from '../../core/toolkit.js'
import type {BenefitGrantRecord, BenefitRecord} from './model.js'
import {registerFiles} from './files.js'
import * as present from './present.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {emitGrantsRevoked, revokeGrants} from '../subscriptions/lifecycle.js'

type BenefitType = BenefitRecord['type']

export const BENEFIT_TYPES = [
  'custom',
  'discord',
  'github_repository',
  'downloadables',
  'license_keys',
  'meter_credit',
  'feature_flag',
] as const satisfies readonly BenefitType[]

const visibility = z.enum(['draft', 'private', 'public'])
const description = z.string().min(3).max(42)

// Properties are stored in the shape the service returns, with every optional key present.
const customProperties = z.object({note: z.string().nullish()}).transform((p) => ({note: p.note ?? null}))

const licenseKeysProperties = z
  .object({
    prefix: z.string().nullish(),
    expires: z.object({ttl: z.int().min(1), timeframe: z.enum(['year', 'month', 'day'])}).nullish(),
    activations: z.object({limit: z.int().min(1).max(50), enable_customer_admin: z.boolean()}).nullish(),
    limit_usage: z.int().min(1).nullish(),
  })
  .transform((p) => ({prefix: p.prefix ?? null, expires: p.expires ?? null, activations: p.activations ?? null, limit_usage: p.limit_usage ?? null}))

/** Downloadable files: uploaded `downloadable` files of the organization (checked in `checkFiles`). */
const downloadablesProperties = z
  .object({archived: z.record(z.uuid(), z.boolean()).nullish(), files: z.array(z.uuid()).min(1)})
  .transform((p) => ({archived: p.archived ?? {}, files: p.files}))

/** Each file of a downloadables benefit must be an uploaded downloadable file. */
function checkFiles(ctx: Ctx, type: BenefitType, properties: Record<string, unknown> | undefined): void {
  if (type !== 'downloadables' || !properties) return
  ;(properties.files as string[]).forEach((id, i) => {
    const f = ctx.store.get('files', id)
    if (!f?.is_uploaded || f.service !== 'downloadable') throw ruleValidation(['body', 'properties', 'files', i], 'File does not exist or is not uploaded.', id)
  })
}

/** The other types are kept as given: the emulator does not talk to Discord, GitHub or storage. */
const otherProperties = z.record(z.string(), z.unknown())

/**
 * Discord: the service takes the bot's guild token and finds its guild; a guild_id sent along is ignored.
 * The emulator's guild of a token: the seeded benefit's for the seeded token, else one derived from the
 * token (the same token, the same guild, in every environment).
 */
const discordProperties = z.object({guild_token: z.string(), role_id: z.string(), kick_member: z.boolean()})
const SEEDED_GUILDS: Record<string, string> = {'emulated-discord-guild-token': '1100000000000000000'}

function withGuild(type: BenefitType, properties: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'discord') return properties
  const token = properties.guild_token as string
  const guildId = SEEDED_GUILDS[token] ?? String(10n ** 18n + (BigInt(`0x${createHash('sha256').update(token).digest('hex').slice(0, 15)}`) % 10n ** 18n))
  return {guild_id: guildId, role_id: properties.role_id, kick_member: properties.kick_member, guild_token: token}
}

/** The types whose update takes `visibility` (the document's Benefit*Update); the service ignores it in the others. */
const VISIBILITY_UPDATABLE: ReadonlySet<BenefitType> = new Set(['custom', 'license_keys', 'meter_credit', 'feature_flag'])

const PROPERTIES: Record<BenefitType, z.ZodType<Record<string, unknown>>> = {
  custom: customProperties,
  license_keys: licenseKeysProperties,
  discord: discordProperties,
  github_repository: otherProperties,
  downloadables: downloadablesProperties,
  meter_credit: z.object({units: z.int().min(0).max(2_147_483_647), rollover: z.boolean(), meter_id: z.uuid()}),
  feature_flag: otherProperties,
}

const createOf = <T extends BenefitType>(type: T) =>
  z.object({
    type: z.literal(type),
    description,
    properties: PROPERTIES[type],
    metadata: metadataSchema.default({}),
    visibility: visibility.default('public'),
    organization_id: z.uuid().nullish(),
  })

const benefitCreate = z.discriminatedUnion('type', [
  createOf('custom'),
  createOf('license_keys'),
  createOf('downloadables'),
  createOf('discord'),
  createOf('github_repository'),
  createOf('feature_flag'),
  createOf('meter_credit'),
])

/** `properties` is checked against the stored benefit's type once the benefit is known. */
const benefitUpdate = z.object({
  type: z.enum(BENEFIT_TYPES).nullish(),
  description: description.nullish(),
  properties: z.unknown().optional(),
  metadata: metadataSchema.nullish(),
  visibility: visibility.nullish(),
})

const iso = (ctx: Ctx) => new Date(ctx.now).toISOString()

/** A benefit that exists and is not deleted, or 404. */
export const findBenefit = finder('benefits', {live: (b) => !b.is_deleted})

const isGranted = (g: BenefitGrantRecord) => g.granted_at !== null && g.revoked_at === null

const grantFilters = {
  customer_id: byField('uuid', (g: BenefitGrantRecord) => g.customer_id),
  is_granted: byField('bool', isGranted),
}
export function register(r: Router): void {
  listRoute(r, 'benefits:list', (ctx: Ctx) => ctx.store.all('benefits').filter((b) => !b.is_deleted), {
    present: present.benefit,
    filters: {
      organization_id: organizationScope,
      type: byField(BENEFIT_TYPES, (b: BenefitRecord) => b.type),
      id: byField('uuid', (b: BenefitRecord) => b.id),
      exclude_id: {type: 'uuid', match: (b: BenefitRecord, values) => !values.includes(b.id)},
      query: textSearch((b: BenefitRecord) => b.description),
    },
    sorts: {
      created_at: (b) => b.created_at,
      description: (b) => b.description.toLowerCase(),
      type: (b) => b.type,
      user_order: notSortable('the order the organization arranges its benefits in on the dashboard, which the emulator has no dashboard to keep'),
    },
    defaultSort: ['-created_at'],
    metadata: (b) => b.metadata,
  })
  getRoute(r, 'benefits:get', findBenefit, present.benefit)

  r.post('/benefits/', 'organization', (ctx) => {
    const input = parse(benefitCreate, ctx.body)
    checkOrganization(ctx, input.organization_id)
    if (input.type === 'meter_credit') {
      const meterId = (input.properties as {meter_id: string}).meter_id
      if (!ctx.store.data.meters.some((m) => m.id === meterId)) throw ruleValidation(['body', 'properties', 'meter_id'], 'Meter does not exist.', meterId)
    }
    checkFiles(ctx, input.type, input.properties)
    const benefit = ctx.store.write(() =>
      ctx.store.insert('benefits', {
        id: uuid(),
        created_at: iso(ctx),
        modified_at: null,
        type: input.type,
        description: input.description,
        selectable: true,
        deletable: true,
        is_deleted: false,
        visibility: input.visibility,
        metadata: input.metadata,
        properties: withGuild(input.type, input.properties),
      }),
    )
    const body = present.benefit(ctx.view, benefit)
    emit(ctx.env, 'benefit.created', body)
    return ok(body, 201)
  })

  r.patch('/benefits/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(benefitUpdate, ctx.body)
    const current = findBenefit(ctx, id)
    if (input.type && input.type !== current.type) {
      throw ruleValidation(['body', 'type'], `The benefit type cannot be changed: this benefit is of type ${current.type}.`, input.type)
    }
    const properties = input.properties === undefined ? undefined : parse(PROPERTIES[current.type], input.properties, ['body', 'properties'])
    checkFiles(ctx, current.type, properties)
    const benefit = ctx.store.write(() => {
      const b = findBenefit(ctx, id)
      if (input.description) b.description = input.description
      if (input.visibility && VISIBILITY_UPDATABLE.has(b.type)) b.visibility = input.visibility
      if (input.metadata) b.metadata = input.metadata
      if (properties) b.properties = withGuild(b.type, properties)
      b.modified_at = iso(ctx)
      return b
    })
    const body = present.benefit(ctx.view, benefit)
    emit(ctx.env, 'benefit.updated', body)
    return ok(body)
  })

  r.delete('/benefits/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    if (!findBenefit(ctx, id).deletable) throw notPermitted()
    const revoked = ctx.store.write(() => {
      const b = findBenefit(ctx, id)
      b.is_deleted = true
      b.modified_at = iso(ctx)
      for (const p of ctx.store.all('products')) {
        if (p.benefit_ids.includes(id)) p.benefit_ids = p.benefit_ids.filter((x) => x !== id)
      }
      return revokeGrants(ctx, (g) => g.benefit_id === id)
    })
    emitGrantsRevoked(ctx, revoked)
    return noContent()
  })

  const grantsOf: Rows<BenefitGrantRecord> = (ctx) => {
    const id = findBenefit(ctx, pathId(ctx)).id
    return ctx.store.all('benefit_grants').filter((g) => g.benefit_id === id)
  }
  listRoute(r, 'benefits:grants', grantsOf, {
    present: present.benefitGrant,
    filters: grantFilters,
    sorts: {},
    defaultSort: ['-created_at'],
  })

  registerFiles(r)

  listRoute(r, 'benefit-grants:list', (ctx: Ctx) => ctx.store.all('benefit_grants'), {
    present: present.benefitGrant,
    filters: {
      ...grantFilters,
      organization_id: organizationScope,
      external_customer_id: byField('string', (g: BenefitGrantRecord, ctx) => ctx.store.get('customers', g.customer_id)?.external_id ?? null),
    },
    sorts: {created_at: (g) => g.created_at, granted_at: (g) => g.granted_at, revoked_at: (g) => g.revoked_at},
    defaultSort: ['-created_at'],
  })
}
