// The cutover of a subscription imported from another provider (polarsource/polar #14508): the service
// sends `subscription.migrated`, with the provider and the provider's subscription id at the top level of
// its payload beside `data`, then `subscription.updated` (neither created nor active), and records the
// system event `subscription.migrated`. The emulator imports no subscription, so its control surface
// makes a live subscription of its own go through that cutover, once.
import {domainError} from '../../core/errors.js'
import {type Ctx, emit, type Handler, ok} from '../../core/http.js'
import {pathId} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {z} from '../../core/zod.js'
import {recordSystemEvent} from '../events/log.js'
import {BILLABLE, findSubscription} from './lifecycle.js'
import type {SubscriptionRecord} from './model.js'
import {subscription as presentSubscription} from './present.js'

const cutover = z.object({provider: z.string().min(1), provider_subscription_id: z.string().min(1)})

export function migrateSubscription(ctx: Ctx): ReturnType<Handler> {
  const id = pathId(ctx)
  const from = parse(cutover, ctx.body)
  const provided = {provider: from.provider, provider_subscription_id: from.provider_subscription_id}
  const check = (s: SubscriptionRecord): SubscriptionRecord => {
    if (s.migrated_from) {
      const was = `${s.migrated_from.provider} ${s.migrated_from.provider_subscription_id}`
      throw domainError(409, 'SubscriptionNotMigratable', `Subscription ${id} was already migrated (from ${was}).`)
    }
    if (s.ended_at !== null || !BILLABLE.includes(s.status)) {
      const why = `Subscription ${id} is ${s.status}; only a live subscription goes live at a cutover.`
      throw domainError(409, 'SubscriptionNotMigratable', why)
    }
    return s
  }
  check(findSubscription(ctx, id))
  const migrated = ctx.store.write(() => {
    const s = check(findSubscription(ctx, id))
    const at = new Date(ctx.now).toISOString()
    s.migrated_from = provided
    s.modified_at = at
    const metadata = {subscription_id: s.id, ...provided, product_id: s.product_id}
    recordSystemEvent(ctx.store, 'subscription.migrated', s.customer_id, at, metadata)
    return s
  })
  const body = presentSubscription(ctx.view, migrated)
  emit(ctx.env, 'subscription.migrated', body, provided)
  emit(ctx.env, 'subscription.updated', body)
  return ok(body)
}
