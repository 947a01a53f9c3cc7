// What a price charges before usage, for every price type: the amount a checkout starts at, and the
// lowest amount the price allows (used by seeds and by the `price_amount` sort).
import type {PriceRecord} from './model.js'

/** A seat-based price at its minimum number of seats, priced at the tier that number falls in. */
function seatAmount(p: Extract<PriceRecord, {amount_type: 'seat_based'}>): number {
  const seats = p.seat_tiers.minimum_seats
  const tier = p.seat_tiers.tiers.find((t) => t.min_seats <= seats && (t.max_seats === null || seats <= t.max_seats)) ?? p.seat_tiers.tiers[0]
  return (tier?.price_per_seat ?? 0) * seats
}

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
