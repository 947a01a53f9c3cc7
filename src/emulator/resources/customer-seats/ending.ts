// When a seat-based subscription ends, every seat it still has is revoked (the service's
// `revoke_all_seats_for_subscription`); the seat holders' benefits go with the subscription's grants.
import {emit, type Ctx} from '../../core/http.js'
import {isAssigned, type SeatRecord} from './model.js'
import {customerSeat} from './present.js'

/** Marks the subscription's pending and claimed seats revoked (inside a store write); returns them. */
export function revokeSeatsOf(ctx: Ctx, subscriptionId: string): SeatRecord[] {
  const now = new Date(ctx.now).toISOString()
  const seats = ctx.store.all('customer_seats').filter((s) => s.subscription_id === subscriptionId && isAssigned(s))
  for (const seat of seats) {
    Object.assign(seat, {status: 'revoked', revoked_at: now, modified_at: now, invitation_token: null, customer_id: null, email: null})
  }
  return seats
}

export function emitSeatsRevoked(ctx: Ctx, seats: SeatRecord[]): void {
  for (const seat of seats) emit(ctx.env, 'customer_seat.revoked', customerSeat(ctx.view, seat))
}
