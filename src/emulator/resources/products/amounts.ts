// What a price charges before usage, for every price type: the amount a checkout starts at, and the
// lowest amount the price allows (used by seeds and by the `price_amount` sort).
import type {PriceRecord} from './model.js'

type SeatPrice = Extract<PriceRecord, {amount_type: 'seat_based'}>

/**
 * What `seats` seats cost a period: with volume tiers every seat at the price of the tier the count falls
 * in, with graduated tiers each tier's seats at that tier's price (as the service's tiers calculate).
 */
export function seatsAmount(p: SeatPrice, seats: number): number {
  const tiers = [...p.seat_tiers.tiers].sort((a, b) => a.min_seats - b.min_seats)
  if (p.seat_tiers.seat_tier_type === 'graduated') {
    let total = 0
    let below = 0
    for (const t of tiers) {
      if (seats <= below) break
      const inTier = t.max_seats === null ? seats - below : Math.min(seats, t.max_seats) - below
      total += inTier * t.price_per_seat
      if (t.max_seats !== null) below = t.max_seats
    }
    return total
  }
  const tier = tiers.find((t) => t.max_seats === null || seats <= t.max_seats) ?? tiers[tiers.length - 1]
  return (tier?.price_per_seat ?? 0) * seats
}

/** A seat-based price at its minimum number of seats. */
const seatAmount = (p: SeatPrice): number => seatsAmount(p, p.seat_tiers.minimum_seats)

/** The amount a new checkout of this price starts at (a custom price's preset, if any). */
export function startingAmount(p: PriceRecord): number {
  switch (p.amount_type) {
    case 'fixed':
      return p.price_amount
    case 'custom':
      return p.preset_amount ?? p.minimum_amount
    case 'seat_based':
      return seatAmount(p)
    case 'metered_unit':
      return 0 // billed on usage at the end of each period
  }
}

/** The lowest amount the price allows. */
export function minimumAmount(p: PriceRecord): number {
  return p.amount_type === 'custom' ? p.minimum_amount : startingAmount(p)
}
