// The customer's wallets (server/polar/customer_portal: wallet endpoints and service): a balance with the
// organization, one per currency. Nothing in the emulated API tops one up; the control API does
// (`POST /_emulator/customers/{id}/wallet`).
import {z} from '../../core/zod.js'

import {ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {finder, getRoute, listRoute, lookup, pathId} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {me} from './me.js'
import type {WalletRecord} from './model.js'

const present = (_view: unknown, w: WalletRecord) => ({
  id: w.id,
  created_at: w.created_at,
  modified_at: w.modified_at,
  customer_id: w.customer_id,
  balance: w.balance,
  currency: w.currency,
})

export function registerWallets(r: Router): void {
  listRoute(r, 'customer_portal:wallets:list', (ctx: Ctx) => ctx.store.all('wallets').filter((w) => w.customer_id === me(ctx)), {
    present,
    sorts: {created_at: (w) => w.created_at, balance: (w) => w.balance},
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'customer_portal:wallets:get', finder('wallets'), present, me)
}

const topUp = z.object({amount: z.int().min(1), currency: z.string().length(3).default('usd')})

/** Control action: adds `amount` cents to the customer's wallet in `currency` (made on its first top-up). */
export function topUpWallet(ctx: Ctx) {
  const customer = lookup(ctx, 'customers', pathId(ctx))
  const input = parse(topUp, ctx.body)
  const currency = input.currency.toLowerCase()
  const at = new Date(ctx.now).toISOString()
  const wallet = ctx.store.write(() => {
    const held = ctx.store.all('wallets').find((w) => w.customer_id === customer.id && w.currency === currency)
    if (held) {
      held.balance += input.amount
      held.modified_at = at
      return held
    }
    return ctx.store.insert('wallets', {id: uuid(), created_at: at, modified_at: null, customer_id: customer.id, balance: input.amount, currency})
  })
  return ok(present(null, wallet), 201)
}
