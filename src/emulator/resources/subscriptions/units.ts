// A unit-based subscription's number of units (SubscriptionUpdateUnits, polarsource/polar #14059; the
// service's `update_units` and `validate_units_change`, server/polar/subscription/service.py:2296, :1705).
// The emulator has no unit-based prices (the document describes none), so it refuses a units change as the
// service refuses one of any other subscription, after the same checks.
import {z} from '../../core/zod.js'
import {domainError} from '../../core/errors.js'
import type {Ctx} from '../../core/http.js'
import type {SubscriptionRecord} from './model.js'
import {alreadyCanceled, findSubscription, isRevoked} from './lifecycle.js'
import {checkSeatsProration} from './seats.js'

const proration = z.enum(['invoice', 'prorate', 'next_period', 'reset'])
export const unitsSchema = z.object({units: z.int().min(1).max(2147483647), proration_behavior: proration.nullish()}).strict()

export function updateUnits(ctx: Ctx, id: string, _units: number, behavior: string | null | undefined): SubscriptionRecord {
  const s = findSubscription(ctx, id)
  // `update` refuses `reset` for the organization first (service.py:1449), as for seats
  checkSeatsProration(behavior)
  if (isRevoked(s) || s.cancel_at_period_end) throw alreadyCanceled()
  // no subscription here has a unit price (`get_price_by_type(ProductPriceUnit)` is None)
  throw domainError(400, 'NotAUnitBasedSubscription', 'This subscription does not support unit-based pricing.')
}
