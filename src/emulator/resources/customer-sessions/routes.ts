// Customer sessions: the server side hands a customer a portal token (server/polar/customer_session/service.py).
import {z} from '../../core/zod.js'

import {requestValidation, ruleValidation} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import type {CustomerRecord} from '../customers/model.js'
import * as present from './present.js'
import {parse} from '../../core/validate.js'
import {customerByExternalId, customerById} from '../customers/routes.js'
import type {MemberRecord} from '../members/model.js'
import {emitMember, ensureOwner, memberByExternalId, memberOf} from '../members/rules.js'

/**
 * `customer_id`, or `external_customer_id` (deprecated alias `customer_external_id`). The real body is a
 * union of the two shapes; the first that fits wins, so `customer_id` is used when both are sent.
 */
const sessionCreate = z.object({
  customer_id: z.uuid().nullish(),
  external_customer_id: z.string().nullish(),
  customer_external_id: z.string().nullish(),
  return_url: z.url().max(2083).nullish(),
  member_id: z.uuid().nullish(),
  external_member_id: z.string().nullish(),
})

const missing = (field: string) => ({type: 'missing', loc: ['body', field], msg: 'Field required', input: null})

/**
 * The member a session acts as (server/polar/customer_session/service.py): the one named by `member_id` or
 * `external_member_id`, which must be the customer's; a team customer must name one; undefined: an
 * individual customer's owner.
 */
function sessionMember(ctx: Ctx, customer: CustomerRecord, input: z.infer<typeof sessionCreate>): MemberRecord | undefined {
  if (input.member_id) {
    const m = memberOf(ctx, customer.id, input.member_id)
    if (!m) throw ruleValidation(['body', 'member_id'], 'Member does not exist for this customer.', input.member_id)
    return m
  }
  if (input.external_member_id) {
    const m = memberByExternalId(ctx, customer.id, input.external_member_id)
    if (!m) throw ruleValidation(['body', 'external_member_id'], 'Member does not exist for this customer.', input.external_member_id)
    return m
  }
  if (customer.type === 'team') throw ruleValidation(['body', 'member_id'], 'member_id is required for team customers.', null)
  return undefined
}

export function register(r: Router): void {
  r.post('/customer-sessions/', 'organization', (ctx) => {
    const input = parse(sessionCreate, ctx.body)
    const externalId = input.external_customer_id ?? input.customer_external_id
    let customer: CustomerRecord | undefined
    if (input.customer_id) {
      customer = customerById(ctx, input.customer_id)
      if (!customer) throw ruleValidation(['body', 'customer_id'], 'Customer does not exist.', input.customer_id)
    } else if (externalId) {
      customer = customerByExternalId(ctx, externalId)
      // The alias fills `external_customer_id` before the service looks the customer up, so errors name that field.
      if (!customer) throw ruleValidation(['body', 'external_customer_id'], 'Customer does not exist.', externalId)
    } else {
      throw requestValidation([missing('customer_id'), missing('external_customer_id')])
    }
    const customerId = customer.id
    const found = sessionMember(ctx, customer, input)
    const {session, owner} = ctx.store.write(() => {
      // an individual customer's session acts as its owner, made now for a customer that has none yet
      const made = found ? undefined : ensureOwner(ctx, customerById(ctx, customerId)!)
      const memberId = found?.id ?? made!.member.id
      const row = ctx.store.insert('customer_sessions', {
        id: uuid(),
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        token: token(TOKEN_PREFIXES.customer),
        expires_at: new Date(ctx.now + ctx.env.options.sessionTtlMs).toISOString(),
        return_url: input.return_url ?? null,
        customer_id: customerId,
        member_id: memberId,
      })
      return {session: row, owner: made?.created ? made.member : undefined}
    })
    if (owner) emitMember(ctx, 'created', owner)
    return ok(present.customerSession(ctx.view, session), 201)
  })
}
