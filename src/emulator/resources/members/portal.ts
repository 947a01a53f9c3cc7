// The members of the signed-in team in the customer portal (server/polar/customer_portal/endpoints/member.py):
// a member session of an owner or a billing manager of a team customer lists, adds, changes and removes
// the team's members. A session of no member is a 401, a plain member's a 403, an individual customer's a 403.
import {z} from '../../core/zod.js'

import {notFound, notPermitted, ruleValidation, unauthorized} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Router} from '../../core/http.js'
import {listRows} from '../../core/list.js'
import {pathId, routeOf} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import type {CustomerRecord} from '../customers/model.js'
import {MEMBER_ROLES, type MemberRecord} from './model.js'
import * as present from './present.js'
import {addOrFind, changeMember, emitMember, liveMembers, memberOf, removeMember} from './rules.js'

const memberAdd = z.object({email: z.email(), name: z.string().nullish(), role: z.enum(MEMBER_ROLES).default('member')})
const memberUpdate = z.object({name: z.string().max(256).nullish(), role: z.enum(MEMBER_ROLES).nullish()})

/** The signed-in member (an owner or a billing manager) and their team customer, or the service's 401 / 403. */
function manager(ctx: Ctx): {actor: MemberRecord; customer: CustomerRecord} {
  if (ctx.auth.kind !== 'customer' || !ctx.auth.memberId) throw unauthorized()
  const customer = ctx.store.get('customers', ctx.auth.customerId)
  const actor = customer && memberOf(ctx, customer.id, ctx.auth.memberId)
  if (!customer || !actor) throw unauthorized()
  if (actor.role !== 'owner' && actor.role !== 'billing_manager') throw notPermitted('Insufficient role for this operation')
  if (customer.type !== 'team') {
    throw notPermitted('Member management is only available for team customers. Purchase a seat-based product to enable team features.')
  }
  return {actor, customer}
}

/** A member of the signed-in team by the path's id, or 404. */
function teamMember(ctx: Ctx, customer: CustomerRecord): MemberRecord {
  const m = memberOf(ctx, customer.id, pathId(ctx))
  if (!m) throw notFound('Member not found')
  return m
}

export function registerPortal(r: Router): void {
  const list = routeOf('customer_portal:members:list_members')
  r.get(list.path, 'customer', (ctx) => {
    const {customer} = manager(ctx)
    return ok(listRows(liveMembers(ctx, customer.id), ctx.query, {defaultSort: ['created_at']}, present.portalMember))
  })

  r.post(routeOf('customer_portal:members:add_member').path, 'customer', (ctx) => {
    const input = parse(memberAdd, ctx.body)
    const {customer} = manager(ctx)
    if (input.role === 'owner') throw ruleValidation(['body', 'role'], 'Cannot add a member as owner. There must be exactly one owner.', input.role)
    // the service's portal add sends no member.created (its get-or-create does not)
    const {member} = ctx.store.write(() => addOrFind(ctx, customer, input))
    return ok(present.portalMember(member), 201)
  })

  const one = routeOf('customer_portal:members:update_member').path
  r.patch(one, 'customer', (ctx) => {
    const input = parse(memberUpdate, ctx.body)
    const {actor, customer} = manager(ctx)
    const target = teamMember(ctx, customer)
    if (input.role && input.role !== target.role && target.id === actor.id) {
      throw ruleValidation(['path', 'id'], 'You cannot modify your own role.', target.id)
    }
    const {member, changed} = ctx.store.write(() => {
      const m = teamMember(ctx, customer)
      return {member: m, ...changeMember(ctx, m, input, actor)}
    })
    if (changed) emitMember(ctx, 'updated', member)
    return ok(present.portalMember(member))
  })

  r.delete(one, 'customer', (ctx) => {
    const {actor, customer} = manager(ctx)
    const target = teamMember(ctx, customer)
    if (target.id === actor.id) throw ruleValidation(['path', 'id'], 'You cannot remove yourself from the team.', target.id)
    emitMember(
      ctx,
      'deleted',
      ctx.store.write(() => removeMember(ctx, teamMember(ctx, customer))),
    )
    return noContent()
  })
}
