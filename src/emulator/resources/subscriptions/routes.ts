// Subscriptions: list, create, read, the PATCH actions of `subscriptions:update`, and DELETE (= revoke now).
import {requestValidation, ruleValidation} from '../../core/errors.js'
import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {after, before, byField} from '../../core/list.js'
import {getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import type {SubscriptionRecord} from './model.js'
import {grantProductBenefits} from '../benefits/grants.js'
import {addInterval} from './periods.js'
import {uuid} from '../../core/ids.js'
import * as present from './present.js'
import * as benefitViews from '../benefits/present.js'
import {parse} from '../../core/validate.js'
import {CANCELLATION_REASONS, emitCustomerStateChanged, findSubscription, isActive, isRevoked, iso, revokeSubscription} from './lifecycle.js'
import {createSchema, parseUpdate, productError, update} from './update.js'
import {resetSubscriptionMeters} from '../customer-meters/reset.js'

const STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'] as const

const externalId = (s: SubscriptionRecord, ctx: Ctx): string | null => ctx.store.get('customers', s.customer_id)?.external_id ?? null

export function register(r: Router): void {
  listRoute(r, 'subscriptions:list', (ctx: Ctx) => ctx.store.all('subscriptions').filter((s) => s.started_at !== null), {
    present: present.subscription,
    filters: {
      organization_id: organizationScope,
      product_id: byField('uuid', (s: SubscriptionRecord) => s.product_id),
      customer_id: byField('uuid', (s: SubscriptionRecord) => s.customer_id),
      external_customer_id: byField('string', externalId),
      discount_id: byField('uuid', (s: SubscriptionRecord) => s.discount_id),
      active: {type: 'bool', match: (s: SubscriptionRecord, [v]) => (v ? isActive(s) : isRevoked(s))},
      status: byField(STATUSES, (s: SubscriptionRecord) => s.status),
      cancel_at_period_end: byField('bool', (s: SubscriptionRecord) => s.cancel_at_period_end),
      customer_cancellation_reason: byField(CANCELLATION_REASONS, (s: SubscriptionRecord) => s.customer_cancellation_reason),
      canceled_at_after: after((s: SubscriptionRecord) => s.canceled_at),
      canceled_at_before: before((s: SubscriptionRecord) => s.canceled_at),
      started_after: after((s: SubscriptionRecord) => s.started_at),
      started_before: before((s: SubscriptionRecord) => s.started_at),
    },
    sorts: {
      customer: (s, ctx) => ctx.store.get('customers', s.customer_id)?.email?.toLowerCase(),
      status: (s) => s.status,
      started_at: (s) => s.started_at,
      current_period_end: (s) => s.current_period_end,
      ended_at: (s) => s.ended_at,
      ends_at: (s) => s.ends_at,
      amount: (s) => s.amount,
      product: (s, ctx) => ctx.store.get('products', s.product_id)?.name.toLowerCase(),
      discount: (s) => s.discount_id,
    },
    defaultSort: ['-started_at'],
    metadata: (s) => s.metadata,
  })
  getRoute(r, 'subscriptions:get', findSubscription, present.subscription)

  // Only free recurring products can be subscribed to directly; paid ones go through checkouts.
  r.post('/subscriptions/', 'organization', (ctx) => {
    const input = parse(createSchema, ctx.body)
    if (!input.customer_id && !input.external_customer_id) {
      throw requestValidation([
        {type: 'missing', loc: ['body', 'customer_id'], msg: 'Field required', input: null},
        {type: 'missing', loc: ['body', 'external_customer_id'], msg: 'Field required', input: null},
      ])
    }
    const created = ctx.store.write(() => {
      // the service's order (subscription/service.py create): the product, then the customer; a customer who
      // already has a subscription gets another one (only a checkout refuses that)
      const product = ctx.store.get('products', input.product_id)
      if (!product || product.is_archived) throw productError(input.product_id, 'Product does not exist.')
      if (!product.recurring_interval) throw productError(input.product_id, 'Product is not a recurring product.')
      const price = product.prices.find((p) => !p.is_archived)
      if (price?.amount_type !== 'fixed' || price.price_amount !== 0) {
        throw productError(input.product_id, 'Product is not free. The customer should go through a checkout to create a paid subscription.')
      }
      const customer = input.customer_id
        ? ctx.store.get('customers', input.customer_id)
        : ctx.store.all('customers').find((c) => c.external_id === input.external_customer_id)
      if (!customer || customer.deleted_at !== null) {
        const field = input.customer_id ? 'customer_id' : 'external_customer_id'
        throw ruleValidation(['body', field], 'Customer does not exist.', input[field])
      }
      const now = ctx.now
      const row: SubscriptionRecord = {
        id: uuid(),
        created_at: iso(now),
        modified_at: null,
        amount: 0,
        currency: price.price_currency,
        recurring_interval: product.recurring_interval,
        recurring_interval_count: product.recurring_interval_count ?? 1,
        status: 'active',
        current_period_start: iso(now),
        current_period_end: iso(addInterval(now, product.recurring_interval, product.recurring_interval_count ?? 1)),
        trial_start: null,
        trial_end: null,
        cancel_at_period_end: false,
        canceled_at: null,
        started_at: iso(now),
        ends_at: null,
        ended_at: null,
        customer_id: customer.id,
        product_id: product.id,
        discount_id: null,
        checkout_id: null,
        customer_cancellation_reason: null,
        customer_cancellation_comment: null,
        metadata: input.metadata,
        price_ids: [price.id],
      }
      ctx.store.insert('subscriptions', row)
      resetSubscriptionMeters(ctx.store, row, row.created_at)
      const grants = grantProductBenefits(ctx.store, {customerId: customer.id, productId: product.id, subscriptionId: row.id}, row.created_at)
      return {subscription: row, grants}
    })
    const body = present.subscription(ctx.view, created.subscription)
    emit(ctx.env, 'subscription.created', body)
    emit(ctx.env, 'subscription.active', body)
    for (const g of created.grants) emit(ctx.env, 'benefit_grant.created', benefitViews.benefitGrant(ctx.view, g))
    emitCustomerStateChanged(ctx, created.subscription.customer_id)
    return ok(body, 201)
  })

  r.patch('/subscriptions/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parseUpdate(ctx.body)
    return ok(present.subscription(ctx.view, update(ctx, id, input)))
  })

  r.delete('/subscriptions/:id', 'organization', (ctx) => ok(present.subscription(ctx.view, revokeSubscription(ctx, pathId(ctx)))))
}
