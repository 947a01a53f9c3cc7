// The service's rules for members (server/polar/member/service.py), shared by the organization's routes,
// the customer portal's, customers (the owner made with a customer, every member deleted with it) and
// customer sessions (the member a portal session acts as). The writing functions run inside `store.write`;
// their callers emit the `member.*` events once the write is done.
import {notPermitted, ruleValidation} from '../../core/errors.js'
import {emit, type Ctx} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import type {CustomerRecord} from '../customers/model.js'
import type {MemberRecord, MemberRole} from './model.js'
import * as present from './present.js'

const iso = (ctx: Ctx) => new Date(ctx.now).toISOString()
const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** The customer's members that are not deleted, oldest first. */
export const liveMembers = (ctx: Ctx, customerId: string): MemberRecord[] =>
  ctx.store.all('members').filter((m) => m.customer_id === customerId && m.deleted_at === null)

/** A live member of the customer by id, or undefined. */
export function memberOf(ctx: Ctx, customerId: string, memberId: string): MemberRecord | undefined {
  const m = ctx.store.get('members', memberId)
  return m && m.customer_id === customerId && m.deleted_at === null ? m : undefined
}

/** A live member of the customer by the organization's own id for it, or undefined. */
export const memberByExternalId = (ctx: Ctx, customerId: string, externalId: string): MemberRecord | undefined =>
  liveMembers(ctx, customerId).find((m) => m.external_id === externalId)

/** The customer's one owner, if it has one yet. */
export const ownerOf = (ctx: Ctx, customerId: string): MemberRecord | undefined => liveMembers(ctx, customerId).find((m) => m.role === 'owner')

/** `member.created`, `member.updated` or `member.deleted`, with the member. */
export function emitMember(ctx: Ctx, change: 'created' | 'updated' | 'deleted', m: MemberRecord): void {
  emit(ctx.env, `member.${change}`, present.member(m))
}

function insertMember(
  ctx: Ctx,
  customer: CustomerRecord,
  fields: Pick<MemberRecord, 'email' | 'name' | 'external_id' | 'role'>,
  createdAt = iso(ctx),
): MemberRecord {
  if (fields.external_id !== null && memberByExternalId(ctx, customer.id, fields.external_id)) {
    // The service's unique index (customer, external id) among live members; its database refuses the row.
    throw ruleValidation(['body', 'external_id'], 'A member with this external ID already exists for this customer.', fields.external_id)
  }
  return ctx.store.insert('members', {id: uuid(), created_at: createdAt, modified_at: null, customer_id: customer.id, deleted_at: null, ...fields})
}

export interface OwnerInput {
  email: string
  name?: string | null
  external_id?: string | null
}

/**
 * The customer's owner: the one it has, else a new one from `owner` or the customer's own email, name and
 * external id (`created` says which). A customer with no email and no owner given has none to make: 422.
 */
export function ensureOwner(ctx: Ctx, customer: CustomerRecord, owner?: OwnerInput | null): {member: MemberRecord; created: boolean} {
  const email = (owner?.email ?? customer.email)?.trim()
  if (!email) throw ruleValidation(['body', 'email'], 'An email is required to create an owner member.', null)
  const existing = ownerOf(ctx, customer.id)
  if (existing) return {member: existing, created: false}
  const fields = {email, name: owner?.name || customer.name, external_id: owner?.external_id || customer.external_id, role: 'owner' as const}
  return {member: insertMember(ctx, customer, fields, customer.created_at), created: true}
}

export interface MemberInput {
  email: string
  name?: string | null
  external_id?: string | null
  role: MemberRole
}

/**
 * A member added to a customer by the organization: an individual customer has one member at most (its
 * owner), and an email already among the customer's members gives that member back (`created` false).
 */
export function addMember(ctx: Ctx, customer: CustomerRecord, input: MemberInput): {member: MemberRecord; created: boolean} {
  if (customer.type === 'individual' && liveMembers(ctx, customer.id).length >= 1) {
    throw notPermitted('Individual customers can only have one member (the owner). Upgrade to a team customer to add more members.')
  }
  return addOrFind(ctx, customer, input)
}

/** The member of the customer with this email, or a new one (the portal's add, which has no other rule). */
export function addOrFind(ctx: Ctx, customer: CustomerRecord, input: MemberInput): {member: MemberRecord; created: boolean} {
  const email = input.email.trim()
  const existing = liveMembers(ctx, customer.id).find((m) => sameEmail(m.email, email))
  if (existing) return {member: existing, created: false}
  return {member: insertMember(ctx, customer, {email, name: input.name ?? null, external_id: input.external_id ?? null, role: input.role}), created: true}
}

export interface MemberChanges {
  name?: string | null
  email?: string | null
  role?: MemberRole | null
}

/**
 * Changes a member (inside `store.write`); `changed` false when nothing was to change (no event then).
 * Making a member the owner moves ownership: the former owner becomes a billing manager. The organization
 * may always do so; in the portal (`caller` given) only the owner may. The one owner cannot lose the role
 * otherwise, and an individual customer's owner takes its email from the customer.
 */
export function changeMember(ctx: Ctx, m: MemberRecord, input: MemberChanges, caller?: MemberRecord): {changed: boolean; demoted?: MemberRecord} {
  // every check before any change: a refused request leaves the store as it was
  const roleChanged = Boolean(input.role) && input.role !== m.role
  const owner = ownerOf(ctx, m.customer_id)
  const transfer = roleChanged && input.role === 'owner' && owner !== undefined
  if (transfer && caller && caller.role !== 'owner') throw ruleValidation(['body', 'role'], 'Only the owner can transfer ownership.', input.role)
  if (roleChanged && m.role === 'owner') throw ruleValidation(['body', 'role'], 'Cannot change role. Customer must have exactly one owner.', input.role)
  const email = input.email?.trim()
  const newEmail = email !== undefined && email !== m.email ? email : undefined
  if (newEmail !== undefined) {
    const customer = ctx.store.get('customers', m.customer_id)
    if (customer?.type === 'individual') {
      throw ruleValidation(['body', 'email'], "Cannot change the email of an individual customer's owner. Update the customer's email instead.", newEmail)
    }
    if (liveMembers(ctx, m.customer_id).some((other) => other.id !== m.id && sameEmail(other.email, newEmail))) {
      throw ruleValidation(['body', 'email'], 'A member with this email already exists for this customer.', newEmail)
    }
  }
  const named = input.name !== undefined && input.name !== null
  if (!named && !roleChanged && newEmail === undefined) return {changed: false}
  const now = iso(ctx)
  if (transfer) {
    owner.role = 'billing_manager'
    owner.modified_at = now
  }
  if (named) m.name = input.name!
  if (roleChanged) m.role = input.role!
  if (newEmail !== undefined) m.email = newEmail
  m.modified_at = now
  return {changed: true, demoted: transfer ? owner : undefined}
}

/** Soft deletes a member (inside `store.write`); the only owner cannot be deleted. */
export function removeMember(ctx: Ctx, m: MemberRecord): MemberRecord {
  if (m.role === 'owner' && liveMembers(ctx, m.customer_id).filter((o) => o.role === 'owner').length <= 1) {
    throw ruleValidation([{type: 'value_error', loc: ['body'], msg: 'Cannot delete the only owner. Transfer ownership first.', input: m.id}])
  }
  m.deleted_at = iso(ctx)
  m.modified_at = m.deleted_at
  return m
}

/** Soft deletes every member of a deleted customer, owner included (inside `store.write`). */
export function removeAllMembers(ctx: Ctx, customerId: string): MemberRecord[] {
  const members = liveMembers(ctx, customerId)
  for (const m of members) {
    m.deleted_at = iso(ctx)
    m.modified_at = m.deleted_at
  }
  return members
}

/** An individual customer's owner follows the customer's email (no event, as the service sends none). */
export function syncOwnerEmail(ctx: Ctx, customer: CustomerRecord): void {
  if (customer.type !== 'individual' || customer.email === null) return
  const owner = ownerOf(ctx, customer.id)
  if (!owner || sameEmail(owner.email, customer.email)) return
  owner.email = customer.email
  owner.modified_at = iso(ctx)
}
