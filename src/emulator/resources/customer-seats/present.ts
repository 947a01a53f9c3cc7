// Customer seats: stored records -> the API's wire shape (CustomerSeat).
import type {Presented, View} from '../../core/present.js'
import type {SeatRecord} from './model.js'

export function customerSeat(v: View, s: SeatRecord): Presented<'CustomerSeat'> {
  const customer = s.customer_id ? v.store.get('customers', s.customer_id) : undefined
  return {
    created_at: s.created_at,
    modified_at: s.modified_at,
    id: s.id,
    subscription_id: s.subscription_id,
    order_id: s.order_id,
    status: s.status,
    customer_id: s.customer_id,
    // the organization's member model is off (feature_settings.member_model_enabled): no member records
    member_id: null,
    member: null,
    email: s.email,
    customer_email: customer?.email ?? null,
    invitation_token_expires_at: s.invitation_token_expires_at,
    claimed_at: s.claimed_at,
    revoked_at: s.revoked_at,
    seat_metadata: s.seat_metadata,
  }
}
