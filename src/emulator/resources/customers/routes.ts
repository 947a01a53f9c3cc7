// Customers and their state (server/polar/customer/endpoints.py, `customers:get_state`).
import {createHash} from '../../core/crypto.js'

import {z} from '../../core/zod.js'

import {requestValidation, ruleValidation} from '../../core/errors.js'
import {checkOrganization, emit, noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, textSearch} from '../../core/list.js'
import {finder, found, listRoute, organizationScope, pathId, perRequest} from '../../core/toolkit.js'
import type {Address} from '../../core/model.js'
import type {CustomerRecord} from './model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import * as present from './present.js'
import * as subscriptionViews from '../subscriptions/present.js'
import {addressSchema, boolIssue, metadataSchema, parse, parseBool} from '../../core/validate.js'
import {emitGrantsRevoked, revokeGrants} from '../subscriptions/lifecycle.js'
import {emitMember, ensureOwner, removeAllMembers, syncOwnerEmail} from '../members/rules.js'

const customerType = z.enum(['individual', 'team'])

const ownerCreate = z.object({email: z.email(), name: z.string().max(256).nullish(), external_id: z.string().nullish()})

/** CustomerIndividualCreate or CustomerTeamCreate: a team customer may have no email of its own. */
const customerCreate = z.object({
  email: z.email().nullish(),
  name: z.string().max(256).nullish(),
  external_id: z.string().min(1).nullish(),
  billing_address: addressSchema.nullish(),
  tax_id: z.string().nullish(),
  locale: z.string().nullish(),
  metadata: metadataSchema.default({}),
  type: customerType.default('individual'),
  owner: ownerCreate.nullish(),
  organization_id: z.uuid().nullish(),
})

const customerUpdate = z.object({
  email: z.email().nullish(),
  name: z.string().max(256).nullish(),
  external_id: z.string().min(1).nullish(),
  // no billing_name: the service's CustomerUpdate has none and ignores one (it comes from checkouts and the portal)
  billing_address: addressSchema.nullish(),
  tax_id: z.string().nullish(),
  locale: z.string().nullish(),
  metadata: metadataSchema.nullish(),
  type: customerType.nullish(),
})

export interface BillingInput {
  billing_name?: string | null
  billing_address?: Address | null
  tax_id?: string | null
}

type BillingFields = Partial<Pick<CustomerRecord, 'billing_name' | 'billing_address' | 'tax_id'>>

const EU = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
])
const TAX_ID_FORMATS: Record<string, string> = {US: 'us_ein', GB: 'gb_vat', CA: 'ca_bn', AU: 'au_abn', CH: 'ch_vat', NO: 'no_vat', IN: 'in_gst', JP: 'jp_cn'}
const TAX_ID_RE = /^[A-Za-z0-9][A-Za-z0-9 .\-/]{2,30}$/

const iso = (ctx: Ctx) => new Date(ctx.now).toISOString()
const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** `[value, format]` as the service stores a tax id; the format follows the billing country. */
function taxId(value: string, address: Address | null | undefined): [string, string] {
  if (!address) throw ruleValidation(['body', 'tax_id'], 'Country is required to validate tax ID.', value)
  if (!TAX_ID_RE.test(value)) throw ruleValidation(['body', 'tax_id'], 'Invalid tax ID.', value)
  const format = EU.has(address.country) ? 'eu_vat' : (TAX_ID_FORMATS[address.country] ?? `${address.country.toLowerCase()}_vat`)
  return [value.replaceAll(/[\s.\-/]/g, '').toUpperCase(), format]
}

/**
 * Checks billing changes against the customer (`current` null when creating) and returns the
 * fields to set. A billing address cannot go back to null once set (server/polar/customer/schemas.py).
 */
export function billingChanges(current: CustomerRecord | null, input: BillingInput): BillingFields {
  const changes: BillingFields = {}
  if (input.billing_name !== undefined) changes.billing_name = input.billing_name
  if (input.billing_address !== undefined) {
    if (input.billing_address === null && current?.billing_address) {
      throw ruleValidation(['body', 'billing_address'], 'Billing address cannot be reset once set.', null)
    }
    changes.billing_address = input.billing_address
  }
  if (input.tax_id !== undefined) {
    changes.tax_id = input.tax_id === null ? null : taxId(input.tax_id, changes.billing_address ?? current?.billing_address)
  }
  return changes
}

/** A live (not deleted) customer by id, or undefined. */
export function customerById(ctx: Ctx, id: string): CustomerRecord | undefined {
  const customer = ctx.store.get('customers', id)
  return customer?.deleted_at === null ? customer : undefined
}

/** A live customer by id, or 404. */
export const findCustomer = finder('customers', {live: (c) => c.deleted_at === null})

/** The customers with an active subscription, once per request (the list's `active` filter). */
const subscribed = perRequest(
  (ctx) =>
    new Set(
      ctx.store
        .all('subscriptions')
        .filter(subscriptionViews.isActiveSubscription)
        .map((s) => s.customer_id),
    ),
)

/** A live customer by the caller's own id, or undefined. */
export function customerByExternalId(ctx: Ctx, externalId: string): CustomerRecord | undefined {
  return ctx.store.all('customers').find((c) => c.external_id === externalId && c.deleted_at === null)
}

function checkUnique(ctx: Ctx, field: 'email' | 'external_id', value: string, selfId: string | null): void {
  const taken = ctx.store
    .all('customers')
    .some((c) => c.deleted_at === null && c.id !== selfId && (field === 'email' ? c.email !== null && sameEmail(c.email, value) : c.external_id === value))
  if (taken) {
    const what = field === 'email' ? 'email address' : 'external ID'
    throw ruleValidation(['body', field], `A customer with this ${what} already exists.`, value)
  }
}

/** `customer.<change>` with the customer, then `customer.state_changed` with its state. */
export function emitCustomerChange(ctx: Ctx, change: 'created' | 'updated' | 'deleted', c: CustomerRecord): unknown {
  const body = present.customer(ctx.view, c)
  emit(ctx.env, `customer.${change}`, body)
  emit(ctx.env, 'customer.state_changed', present.customerState(ctx.view, c))
  return body
}

/** `?anonymize=` of DELETE, parsed like the framework parses a boolean query parameter. */
function anonymizeFlag(ctx: Ctx): boolean {
  const raw = ctx.query.get('anonymize')
  if (raw === null) return false
  const value = parseBool(raw)
  if (value === null) throw requestValidation([boolIssue(['query', 'anonymize'], raw)])
  return value
}

const ENDED: ReadonlySet<SubscriptionRecord['status']> = new Set(['canceled', 'incomplete_expired'])

/** Soft delete (call inside `store.write`): ends subscriptions now, revokes grants, clears `external_id`. */
function softDelete(ctx: Ctx, c: CustomerRecord, anonymize: boolean) {
  const now = iso(ctx)
  const ended = ctx.store.all('subscriptions').filter((s) => s.customer_id === c.id && !ENDED.has(s.status))
  for (const s of ended) {
    s.status = 'canceled'
    s.cancel_at_period_end = false
    s.canceled_at ??= now
    s.ends_at = now
    s.ended_at = now
    s.modified_at = now
  }
  const revoked = revokeGrants(ctx, (g) => g.customer_id === c.id)
  c.deleted_at = now
  c.modified_at = now
  c.external_id = null
  if (anonymize) {
    c.email = `${createHash('sha256')
      .update((c.email ?? c.id).toLowerCase())
      .digest('hex')
      .slice(0, 24)}@anonymized.invalid`
    c.name = null
    c.billing_name = null
    c.billing_address = null
    c.tax_id = null
  }
  return {ended, revoked}
}

export type Resolve = (ctx: Ctx) => CustomerRecord

export const byId: Resolve = (ctx) => findCustomer(ctx, pathId(ctx))
export const byExternalId: Resolve = (ctx) => found(customerByExternalId(ctx, ctx.params.external_id ?? ''))

function registerOne(r: Router, path: string, resolve: Resolve): void {
  r.get(path, 'organization', (ctx) => ok(present.customer(ctx.view, resolve(ctx))))

  r.get(`${path}/state`, 'organization', (ctx) => ok(present.customerState(ctx.view, resolve(ctx))))

  r.patch(path, 'organization', (ctx) => {
    const input = parse(customerUpdate, ctx.body)
    const id = resolve(ctx).id
    const customer = ctx.store.write(() => {
      const c = findCustomer(ctx, id)
      if (input.type === 'individual' && c.type === 'team') {
        throw ruleValidation(['body', 'type'], "Customer type cannot be downgraded from 'team' to 'individual'.", input.type)
      }
      if (input.external_id !== undefined && input.external_id !== c.external_id) {
        if (c.external_id !== null) throw ruleValidation(['body', 'external_id'], 'Customer external ID cannot be updated.', input.external_id)
        if (input.external_id !== null) checkUnique(ctx, 'external_id', input.external_id, c.id)
      }
      if (input.email && (c.email === null || !sameEmail(input.email, c.email))) checkUnique(ctx, 'email', input.email, c.id)
      const billing = billingChanges(c, input)
      if (input.email && input.email !== c.email) {
        c.email = input.email
        c.email_verified = false
      }
      if (input.external_id) c.external_id = input.external_id
      if (input.name !== undefined) c.name = input.name
      if (input.locale !== undefined) c.locale = input.locale
      if (input.metadata) c.metadata = input.metadata
      if (input.type) c.type = input.type
      Object.assign(c, billing)
      c.modified_at = iso(ctx)
      syncOwnerEmail(ctx, c)
      return c
    })
    return ok(emitCustomerChange(ctx, 'updated', customer))
  })

  r.delete(path, 'organization', (ctx) => {
    const anonymize = anonymizeFlag(ctx)
    const id = resolve(ctx).id
    const {customer, ended, revoked, members} = ctx.store.write(() => {
      const c = findCustomer(ctx, id)
      return {customer: c, members: removeAllMembers(ctx, c.id), ...softDelete(ctx, c, anonymize)}
    })
    for (const m of members) emitMember(ctx, 'deleted', m)
    for (const s of ended) {
      const body = subscriptionViews.subscription(ctx.view, s)
      for (const type of ['subscription.updated', 'subscription.canceled', 'subscription.revoked']) emit(ctx.env, type, body)
    }
    emitGrantsRevoked(ctx, revoked)
    emitCustomerChange(ctx, 'deleted', customer)
    return noContent()
  })
}

export function register(r: Router): void {
  listRoute(r, 'customers:list', (ctx: Ctx) => ctx.store.all('customers').filter((c) => c.deleted_at === null), {
    present: present.customer,
    filters: {
      organization_id: organizationScope,
      email: byField('string', (c: CustomerRecord) => c.email),
      query: textSearch(
        (c: CustomerRecord) => c.name,
        (c) => c.email,
        (c) => c.external_id,
      ),
      active: byField('bool', (c: CustomerRecord, ctx) => subscribed(ctx).has(c.id)),
    },
    sorts: {created_at: (c) => c.created_at, email: (c) => c.email?.toLowerCase() ?? null, name: (c) => c.name?.toLowerCase() ?? null},
    defaultSort: ['-created_at'],
    metadata: (c) => c.metadata,
  })

  r.post('/customers/', 'organization', (ctx) => {
    const input = parse(customerCreate, ctx.body)
    checkOrganization(ctx, input.organization_id)
    if (input.type === 'individual' && !input.email) throw requestValidation([{type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: null}])
    // the owner member made with every customer needs an email: the owner's, else the customer's
    if (!input.owner?.email && !input.email) throw ruleValidation(['body', 'email'], 'An email is required to create an owner member.', null)
    const billing = billingChanges(null, {billing_address: input.billing_address, tax_id: input.tax_id})
    const {customer, owner} = ctx.store.write(() => {
      if (input.email) checkUnique(ctx, 'email', input.email, null)
      if (input.external_id) checkUnique(ctx, 'external_id', input.external_id, null)
      const c = ctx.store.insert('customers', {
        id: uuid(),
        created_at: iso(ctx),
        modified_at: null,
        metadata: input.metadata,
        external_id: input.external_id ?? null,
        email: input.email ?? null,
        email_verified: false,
        type: input.type,
        name: input.name ?? null,
        billing_name: null,
        billing_address: billing.billing_address ?? null,
        tax_id: billing.tax_id ?? null,
        locale: input.locale ?? null,
        deleted_at: null,
      })
      return {customer: c, owner: ensureOwner(ctx, c, input.owner).member}
    })
    emitMember(ctx, 'created', owner)
    return ok(emitCustomerChange(ctx, 'created', customer), 201)
  })

  registerOne(r, '/customers/:id', byId)
  registerOne(r, '/customers/external/:external_id', byExternalId)
}
