// The customer portal (server/polar/customer_portal/endpoints/): the signed-in customer's own orders,
// subscriptions, benefits and license keys. Another customer's object is a 404, and nothing
// here writes organization-level data.
import {z} from '../../core/zod.js'

import {ruleValidation} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {byField, textSearch} from '../../core/list.js'
import {found, getRoute, listRoute, pathId, routeOf, type Rows} from '../../core/toolkit.js'
import {methodsOf} from '../payments/methods.js'
import {registerPaymentMethods} from './payment-methods.js'
import {registerOrderPayments} from './orders.js'
import {registerBenefitExtras} from './benefits.js'
import {registerEmailUpdate} from './email-update.js'
import {registerWallets} from './wallets.js'
import type {BenefitGrantRecord} from '../benefits/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import * as licenseKeyViews from '../license-keys/present.js'
import {me} from './me.js'
import {customerOrganization, customerProduct, portalCustomer, portalGrant, portalOrder, portalSubscription} from './present.js'
import {addressSchema, parse} from '../../core/validate.js'
import {BENEFIT_TYPES} from '../benefits/routes.js'
import {billingChanges, emitCustomerChange, findCustomer} from '../customers/routes.js'
import {
  activateLicenseKey,
  deactivateLicenseKey,
  findLicenseKey,
  licenseKeyFilters,
  licenseKeyWithActivations,
  validateLicenseKey,
} from '../license-keys/routes.js'
import {findOrder, generateInvoice, getInvoice, orderListFilters, orderListSorts, orderSearch, updateOrderBilling} from '../orders/routes.js'
import {CANCELLATION_REASONS, cancelAtPeriodEnd, findSubscription, uncancel} from '../subscriptions/lifecycle.js'
import {updateSeats} from '../subscriptions/update.js'

const customerUpdate = z.object({
  billing_name: z.string().max(256).nullish(),
  billing_address: addressSchema.nullish(),
  tax_id: z.string().nullish(),
  default_payment_method_id: z.uuid().nullish(),
})

const subscriptionSeats = z.object({seats: z.number().int()}).strict()

const subscriptionCancel = z.object({
  cancel_at_period_end: z.boolean(),
  cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  cancellation_comment: z.string().nullish(),
})

const productName = (ctx: Ctx, productId: string | null) => (productId ? ctx.store.get('products', productId)?.name : undefined)
const isActive = (s: SubscriptionRecord) => s.status === 'active' || s.status === 'trialing'
const isEnded = (s: SubscriptionRecord) => s.status === 'canceled' || s.status === 'incomplete_expired' || s.status === 'unpaid'

function registerCustomer(r: Router): void {
  r.get('/customer-portal/customers/me', 'customer', (ctx) => ok(portalCustomer(ctx, findCustomer(ctx, me(ctx)))))

  r.patch('/customer-portal/customers/me', 'customer', (ctx) => {
    const input = parse(customerUpdate, ctx.body)
    const methodId = input.default_payment_method_id
    if (methodId === null) {
      throw ruleValidation([{type: 'missing', loc: ['body', 'default_payment_method_id'], msg: 'Default payment method cannot be reset to null.', input: null}])
    }
    if (methodId !== undefined && !methodsOf(ctx, me(ctx)).some((m) => m.id === methodId)) {
      throw ruleValidation([{type: 'invalid', loc: ['body', 'default_payment_method_id'], msg: 'Payment method not found.', input: methodId}])
    }
    const customer = ctx.store.write(() => {
      const c = findCustomer(ctx, me(ctx))
      Object.assign(c, billingChanges(c, input))
      if (methodId !== undefined) c.default_payment_method_id = methodId
      c.modified_at = new Date(ctx.now).toISOString()
      return c
    })
    emitCustomerChange(ctx, 'updated', customer)
    return ok(portalCustomer(ctx, customer))
  })

  // PortalAuthenticatedUser of a customer session (the service refuses a customer without an e-mail, which
  // the emulator's customers always have; member sessions are the team members' part).
  r.get(routeOf('customer_portal:customer-session:get_authenticated_user').path, 'customer', (ctx) => {
    const c = findCustomer(ctx, me(ctx))
    return ok({type: 'customer', name: c.name, email: c.email, customer_id: c.id, member_id: null, role: null})
  })

  r.get('/customer-portal/customer-session/introspect', 'customer', (ctx) => {
    const token = /^Bearer\s+(\S+)/i.exec(ctx.headers.authorization ?? '')?.[1]
    const session = found(ctx.store.all('customer_sessions').find((s) => s.token === token))
    return ok({expires_at: session.expires_at, return_url: session.return_url})
  })
}

function registerOrders(r: Router): void {
  listRoute(r, 'customer_portal:orders:list', (ctx: Ctx) => ctx.store.all('orders').filter((o) => o.customer_id === me(ctx)), {
    present: portalOrder,
    filters: {...orderListFilters, query: orderSearch},
    sorts: orderListSorts,
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'customer_portal:orders:get', findOrder, portalOrder, me)
  r.patch('/customer-portal/orders/:id', 'customer', (ctx) => updateOrderBilling(ctx, pathId(ctx), me(ctx), portalOrder))
  r.post('/customer-portal/orders/:id/invoice', 'customer', (ctx) => generateInvoice(ctx, pathId(ctx), me(ctx)))
  r.get('/customer-portal/orders/:id/invoice', 'customer', (ctx) => getInvoice(ctx, pathId(ctx), me(ctx)))
}

function registerSubscriptions(r: Router): void {
  listRoute(
    r,
    'customer_portal:subscriptions:list',
    (ctx: Ctx) => ctx.store.all('subscriptions').filter((s) => s.customer_id === me(ctx) && s.started_at !== null),
    {
      present: portalSubscription,
      filters: {
        product_id: byField('uuid', (s: SubscriptionRecord) => s.product_id),
        active: {type: 'bool', match: (s: SubscriptionRecord, [v]) => (v ? isActive(s) : isEnded(s))},
        query: textSearch((s: SubscriptionRecord, ctx) => productName(ctx, s.product_id)),
      },
      sorts: {
        started_at: (s) => s.started_at,
        amount: (s) => s.amount,
        status: (s) => s.status,
        // one organization: sorting by it keeps the order
        organization: (_s, ctx) => ctx.store.data.organization.name,
        product: (s, ctx) => productName(ctx, s.product_id)?.toLowerCase(),
      },
      defaultSort: ['-started_at'],
    },
  )

  getRoute(r, 'customer_portal:subscriptions:get', findSubscription, portalSubscription, me)

  r.patch('/customer-portal/subscriptions/:id', 'customer', (ctx) => {
    const id = pathId(ctx)
    const customerId = me(ctx)
    // CustomerSubscriptionUpdateSeats: the customer's own seat-based subscription, its seats changed
    if (ctx.body !== null && typeof ctx.body === 'object' && 'seats' in ctx.body) {
      const {seats} = parse(subscriptionSeats, ctx.body)
      findSubscription(ctx, id, customerId)
      return ok(portalSubscription(ctx.view, updateSeats(ctx, id, seats, null)))
    }
    const input = parse(subscriptionCancel, ctx.body)
    if (!input.cancel_at_period_end) return ok(portalSubscription(ctx.view, uncancel(ctx, id, customerId).subscription))
    const s = cancelAtPeriodEnd(ctx, id, {reason: input.cancellation_reason, comment: input.cancellation_comment, customerId})
    return ok(portalSubscription(ctx.view, s))
  })

  // The portal's DELETE cancels at the end of the period, unlike the core API's immediate revoke.
  r.delete('/customer-portal/subscriptions/:id', 'customer', (ctx) =>
    ok(portalSubscription(ctx.view, cancelAtPeriodEnd(ctx, pathId(ctx), {customerId: me(ctx)}))),
  )
}

function registerBenefits(r: Router): void {
  const benefitOf = (g: BenefitGrantRecord, ctx: Ctx) => ctx.store.get('benefits', g.benefit_id)
  const granted: Rows<BenefitGrantRecord> = (ctx) =>
    ctx.store
      .all('benefit_grants')
      .filter((g) => g.customer_id === me(ctx) && g.granted_at !== null && g.revoked_at === null && benefitOf(g, ctx)?.is_deleted === false)
  listRoute(r, 'customer_portal:benefit-grants:list', granted, {
    present: portalGrant,
    filters: {
      type: byField(BENEFIT_TYPES, (g: BenefitGrantRecord, ctx) => benefitOf(g, ctx)?.type),
      benefit_id: byField('uuid', (g: BenefitGrantRecord) => g.benefit_id),
      order_id: byField('uuid', (g: BenefitGrantRecord) => g.order_id),
      subscription_id: byField('uuid', (g: BenefitGrantRecord) => g.subscription_id),
      query: textSearch((g: BenefitGrantRecord, ctx) => benefitOf(g, ctx)?.description),
    },
    // one organization: sorting by it keeps the order
    sorts: {
      granted_at: (g) => g.granted_at,
      type: (g, ctx) => benefitOf(g, ctx)?.type,
      organization: (_g, ctx) => ctx.store.data.organization.name,
      product_benefit: (g, ctx) => benefitOf(g, ctx)?.description,
    },
    defaultSort: ['product_benefit', '-granted_at'],
  })

  listRoute(r, 'customer_portal:license_keys:list', (ctx: Ctx) => ctx.store.all('license_keys').filter((k) => k.customer_id === me(ctx)), {
    present: licenseKeyViews.licenseKey,
    filters: licenseKeyFilters,
    sorts: {},
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'customer_portal:license_keys:get', findLicenseKey, (_view, k, ctx) => licenseKeyWithActivations(ctx, k), me)

  // Unauthenticated twins of the core routes: the key and `organization_id` in the body identify the key.
  r.post('/customer-portal/license-keys/validate', 'none', validateLicenseKey)
  r.post('/customer-portal/license-keys/activate', 'none', activateLicenseKey)
  r.post('/customer-portal/license-keys/deactivate', 'none', deactivateLicenseKey)
}

function registerOrganization(r: Router): void {
  r.get('/customer-portal/organizations/:slug', 'none', (ctx) => {
    found(ctx.params.slug === ctx.store.data.organization.slug ? ctx.store.data.organization : undefined)
    const products = ctx.store.all('products').filter((p) => p.visibility === 'public' && !p.is_archived && p.recurring_interval !== null)
    return ok({organization: customerOrganization(ctx.view), products: products.map((p) => customerProduct(ctx.view, p, false))})
  })
}

export function register(r: Router): void {
  registerCustomer(r)
  registerOrders(r)
  registerSubscriptions(r)
  registerBenefits(r)
  registerOrganization(r)
  registerPaymentMethods(r)
  registerOrderPayments(r)
  registerBenefitExtras(r)
  registerEmailUpdate(r)
  registerWallets(r)
}
