// The webhook event types of the service (api-facts §8.1), for the emulator and the commands alike.
import type {Schema} from './wire/index.js'

/** An event type as the document names them (WebhookEventType). */
export type WebhookEventType = Schema<'WebhookEventType'>

/** Every event type an endpoint can subscribe to (api-facts §8.1). */
export const WEBHOOK_EVENTS = [
  'checkout.created', 'checkout.updated', 'checkout.expired',
  'customer.created', 'customer.updated', 'customer.deleted', 'customer.state_changed',
  'customer_seat.assigned', 'customer_seat.claimed', 'customer_seat.revoked',
  'member.created', 'member.updated', 'member.deleted',
  'order.created', 'order.updated', 'order.paid', 'order.refunded',
  'subscription.created', 'subscription.updated', 'subscription.active', 'subscription.canceled', 'subscription.uncanceled',
  'subscription.cycled', 'subscription.revoked', 'subscription.past_due', 'subscription.paused', 'subscription.resumed',
  'refund.created', 'refund.updated',
  'product.created', 'product.updated',
  'discount.created', 'discount.updated', 'discount.deleted',
  'benefit.created', 'benefit.updated',
  'benefit_grant.created', 'benefit_grant.cycled', 'benefit_grant.updated', 'benefit_grant.revoked',
  'organization.updated',
] as const satisfies readonly WebhookEventType[]
