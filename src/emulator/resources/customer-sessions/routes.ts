// Customer sessions: the server side hands a customer a portal token (api-facts §2, §4.8; spec §2, §5).
import {z} from 'zod'

import {requestValidation, ruleValidation} from '../../core/errors.js'
import {ok, type Router} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import type {CustomerRecord} from '../customers/model.js'
import * as present from './present.js'
import {parse} from '../../core/validate.js'
import {customerByExternalId, customerById} from '../customers/routes.js'

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
    const session = ctx.store.write(() =>
      ctx.store.insert('customer_sessions', {
        id: uuid(),
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        token: token(TOKEN_PREFIXES.customer),
        expires_at: new Date(ctx.now + ctx.env.options.sessionTtlMs).toISOString(),
        return_url: input.return_url ?? null,
        customer_id: customerId,
      }),
    )
    return ok(present.customerSession(ctx.view, session), 201)
  })
}
