// Members of a customer, for the organization (server/polar/member/endpoints.py): listed, added, read,
// changed and deleted under `/v1/customers/{id}/members` and `/v1/customers/external/{external_id}/members`
// (the member then by its external id too), and every member of the organization at `/v1/members/`.
// The two nested lists are newer than the document (the SDK 1.0.1 sends them): see contract.ts UNPUBLISHED.
import {z} from '../../core/zod.js'

import {notFound} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {byField, listRows, type ListSpec} from '../../core/list.js'
import {listRoute, pathId} from '../../core/toolkit.js'
import {parse, UUID_RE} from '../../core/validate.js'
import type {CustomerRecord} from '../customers/model.js'
import {customerByExternalId, customerById} from '../customers/routes.js'
import {MEMBER_ROLES, type MemberRecord} from './model.js'
import * as present from './present.js'
import {registerPortal} from './portal.js'
import {addMember, changeMember, emitMember, liveMembers, memberByExternalId, memberOf, removeMember} from './rules.js'

const name = z.string().max(256).nullish()

const memberCreate = z.object({
  email: z.email(),
  name,
  external_id: z.string().nullish(),
  role: z.enum(['member', 'billing_manager']).default('member'),
})

const memberUpdate = z.object({name, email: z.email().nullish(), role: z.enum(MEMBER_ROLES).nullish()})

const customerNotFound = () => notFound('Customer not found')
const memberNotFound = () => notFound('Member not found')

/** How a route finds the customer of its path: by id, or by the organization's external id. */
interface Addressing {
  path: string
  customer: (ctx: Ctx) => CustomerRecord | undefined
  member: (ctx: Ctx, customer: CustomerRecord) => MemberRecord | undefined
}

const BY_ID: Addressing = {
  path: '/customers/:id/members',
  customer: (ctx) => customerById(ctx, pathId(ctx)),
  member: (ctx, c) => memberOf(ctx, c.id, pathId(ctx, 'member_id')),
}

const BY_EXTERNAL_ID: Addressing = {
  path: '/customers/external/:external_id/members',
  customer: (ctx) => customerByExternalId(ctx, ctx.params.external_id ?? ''),
  member: (ctx, c) => memberByExternalId(ctx, c.id, ctx.params.member_external_id ?? ''),
}

/** The member of the path: its customer, then the member among the customer's live members, else 404. */
function findMember(ctx: Ctx, a: Addressing): MemberRecord {
  if (a === BY_ID) pathId(ctx) // a malformed customer id is the framework's 422 before any lookup
  const customer = a.customer(ctx)
  const m = customer && a.member(ctx, customer)
  if (!m) throw memberNotFound()
  return m
}

const byRole = byField('string', (m: MemberRecord) => m.role)
const roleFilter = {type: MEMBER_ROLES, match: byRole.match}

/** A customer's members: filtered by role, newest first unless `sorting` says otherwise. */
const nestedList: ListSpec<MemberRecord, Ctx> = {
  filters: {role: roleFilter},
  sorts: {created_at: (m) => m.created_at},
  defaultSort: ['-created_at'],
}

function registerNested(r: Router, a: Addressing): void {
  const one = a === BY_ID ? `${a.path}/:member_id` : `${a.path}/:member_external_id`

  r.get(a.path, 'organization', (ctx) => {
    const customer = a.customer(ctx) ?? throw_(customerNotFound())
    return ok(listRows(liveMembers(ctx, customer.id), ctx.query, nestedList, present.member, ctx))
  })

  r.post(a.path, 'organization', (ctx) => {
    const input = parse(memberCreate, ctx.body)
    const id = (a.customer(ctx) ?? throw_(customerNotFound())).id
    const {member, created} = ctx.store.write(() => addMember(ctx, customerById(ctx, id) ?? throw_(customerNotFound()), input))
    if (created) emitMember(ctx, 'created', member)
    return ok(present.member(member), 201)
  })

  r.get(one, 'organization', (ctx) => ok(present.member(findMember(ctx, a))))

  r.patch(one, 'organization', (ctx) => {
    const input = parse(memberUpdate, ctx.body)
    const id = findMember(ctx, a).id
    const {member, changed} = ctx.store.write(() => {
      const m = ctx.store.get('members', id)!
      return {member: m, ...changeMember(ctx, m, input)}
    })
    if (changed) emitMember(ctx, 'updated', member)
    return ok(present.member(member))
  })

  r.delete(one, 'organization', (ctx) => {
    const id = findMember(ctx, a).id
    const member = ctx.store.write(() => removeMember(ctx, ctx.store.get('members', id)!))
    emitMember(ctx, 'deleted', member)
    return noContent()
  })
}

function throw_(error: Error): never {
  throw error
}

export function register(r: Router): void {
  const everyMember = (ctx: Ctx) => {
    // the service reads a malformed customer id as a 404, not as the framework's 422
    if (ctx.query.getAll('customer_id').some((v) => !UUID_RE.test(v))) throw notFound('Invalid customer ID format')
    return ctx.store.all('members').filter((m) => m.deleted_at === null)
  }
  listRoute(r, 'members:list_members', everyMember, {
    present: (_v, m) => present.member(m),
    filters: {
      customer_id: byField('uuid', (m: MemberRecord) => m.customer_id),
      external_customer_id: byField('string', (m: MemberRecord, ctx) => ctx.store.get('customers', m.customer_id)?.external_id ?? null),
      role: roleFilter,
    },
    sorts: {created_at: (m) => m.created_at},
    defaultSort: ['-created_at'],
  })
  registerNested(r, BY_ID)
  registerNested(r, BY_EXTERNAL_ID)
  registerPortal(r)
}
