// Checkouts (api-facts §3.1, §4.7): the organization's routes here; the public client routes and the
// checkout page in client.ts, confirmation in confirm.ts, checkout links in links.ts, shared rules in rules.ts.

import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {byField, listRows, textSearch} from '../../core/list.js'
import type {CheckoutRecord} from './model.js'
import * as present from './present.js'
import {parse, pathUuid} from '../../core/validate.js'
import {registerClient, registerPage} from './client.js'
import {registerLinks} from './links.js'
import {STATUSES, checkoutCreate, checkoutUpdate, findCheckout, planCreate, saveUpdate, statusOf} from './rules.js'

function externalIdOf(ctx: Ctx, k: CheckoutRecord): string | null {
  return (k.customer_id ? ctx.store.get('customers', k.customer_id)?.external_id : null) ?? k.external_customer_id
}

export function register(r: Router): void {
  r.get('/checkouts/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.all('checkouts'),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            product_id: byField('uuid', (k: CheckoutRecord) => k.product_id),
            customer_id: byField('uuid', (k: CheckoutRecord) => k.customer_id),
            external_customer_id: byField('string', (k: CheckoutRecord) => externalIdOf(ctx, k)),
            status: byField(STATUSES, (k: CheckoutRecord) => statusOf(ctx, k)),
            query: textSearch((k: CheckoutRecord) => k.customer_email),
          },
          sorts: {created_at: (k) => k.created_at, expires_at: (k) => k.expires_at, status: (k) => statusOf(ctx, k)},
          defaultSort: ['-created_at'],
        },
        (k) => present.checkout(ctx.view, k),
      ),
    ),
  )

  r.post('/checkouts/', 'organization', (ctx) => {
    const input = parse(checkoutCreate, ctx.body)
    planCreate(ctx, input)
    const k = ctx.store.write(() => ctx.store.insert('checkouts', planCreate(ctx, input)))
    const body = present.checkout(ctx.view, k)
    emit(ctx.env, 'checkout.created', body)
    return ok(body, 201)
  })

  r.get('/checkouts/:id', 'organization', (ctx) => ok(present.checkout(ctx.view, findCheckout(ctx, pathUuid(ctx.params)))))

  r.patch('/checkouts/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
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
