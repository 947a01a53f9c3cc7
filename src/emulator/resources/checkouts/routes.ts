// Checkouts (server/polar/checkout/endpoints.py): the organization's routes here; the public client routes and the
// checkout page in client.ts, confirmation in confirm.ts, checkout links in links.ts, shared rules in rules.ts.

import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {byField, textSearch} from '../../core/list.js'
import {getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import type {CheckoutRecord} from './model.js'
import * as present from './present.js'
import {parse} from '../../core/validate.js'
import {registerClient, registerPage} from './client.js'
import {registerLinks} from './links.js'
import {STATUSES, checkoutCreate, checkoutUpdate, findCheckout, planCreate, saveUpdate, statusOf} from './rules.js'

const externalIdOf = (k: CheckoutRecord, ctx: Ctx): string | null =>
  (k.customer_id ? ctx.store.get('customers', k.customer_id)?.external_id : null) ?? k.external_customer_id

export function register(r: Router): void {
  listRoute(r, 'checkouts:list', (ctx: Ctx) => ctx.store.all('checkouts'), {
    present: present.checkout,
    filters: {
      organization_id: organizationScope,
      product_id: byField('uuid', (k: CheckoutRecord) => k.product_id),
      customer_id: byField('uuid', (k: CheckoutRecord) => k.customer_id),
      external_customer_id: byField('string', externalIdOf),
      status: byField(STATUSES, (k: CheckoutRecord, ctx) => statusOf(ctx, k)),
      query: textSearch((k: CheckoutRecord) => k.customer_email),
    },
    sorts: {created_at: (k) => k.created_at, expires_at: (k) => k.expires_at, status: (k, ctx) => statusOf(ctx, k)},
    defaultSort: ['-created_at'],
  })

  r.post('/checkouts/', 'organization', (ctx) => {
    const input = parse(checkoutCreate, ctx.body)
    planCreate(ctx, input)
    const k = ctx.store.write(() => ctx.store.insert('checkouts', planCreate(ctx, input)))
    const body = present.checkout(ctx.view, k)
    emit(ctx.env, 'checkout.created', body)
    return ok(body, 201)
  })

  getRoute(r, 'checkouts:get', findCheckout, present.checkout)

  r.patch('/checkouts/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(checkoutUpdate, ctx.body)
    return ok(
      present.checkout(
        ctx.view,
        saveUpdate(ctx, () => findCheckout(ctx, id), input),
      ),
    )
  })

  registerClient(r)
  registerLinks(r)
  registerPage(r)
}
