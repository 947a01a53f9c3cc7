// Customer sessions (portal tokens): stored records -> wire shapes (server/polar/customer_session/schemas.py).
import type {View} from '../../core/present.js'
import type {CustomerSessionRecord} from './model.js'
import {customer} from '../customers/present.js'

export function customerSession(v: View, s: CustomerSessionRecord) {
  const c = v.store.get('customers', s.customer_id)!
  const org = v.store.data.organization
  const portal = new URL(`${v.origin}/${org.slug}/portal`)
  portal.searchParams.set('customer_session_token', s.token)
  if (c.email !== null) portal.searchParams.set('email', c.email)
  return {
    id: s.id,
    created_at: s.created_at,
    modified_at: s.modified_at,
    token: s.token,
    expires_at: s.expires_at,
    return_url: s.return_url,
    customer_portal_url: portal.toString(),
    customer_id: s.customer_id,
    customer: customer(v, c),
  }
}
