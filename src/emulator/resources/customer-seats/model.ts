// Customer seats (server/polar/customer_seat): the seats of a seat-based subscription (or order), each
// pending (invited), claimed or revoked; stored records and their collection in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    customer_seats: SeatRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({customer_seats: [] as SeatRecord[]})

export type SeatStatus = 'pending' | 'claimed' | 'revoked'

export interface SeatRecord {
  id: string
  created_at: string
  modified_at: string | null
  /** The seat's container: a subscription (recurring seats) or an order (one-time seats). */
  subscription_id: string | null
  order_id: string | null
  status: SeatStatus
  /** The customer holding the seat (the organization's member model is off: the seat member's own customer); null once revoked. */
  customer_id: string | null
  /** The seat member's e-mail; null once revoked. */
  email: string | null
  /** The single-use invitation token of a pending seat (never shown by the API, only sent by e-mail). */
  invitation_token: string | null
  invitation_token_expires_at: string | null
  claimed_at: string | null
  revoked_at: string | null
  seat_metadata: Metadata
}

/** A seat that takes one of its container's seats: pending or claimed. */
export const isAssigned = (s: SeatRecord) => s.status === 'pending' || s.status === 'claimed'
