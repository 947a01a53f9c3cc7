// The signed-in customer of a portal route.
import {unauthorized} from '../../core/errors.js'
import type {Ctx} from '../../core/http.js'

/** The signed-in customer's id (routes with auth 'customer' always have one). */
export function me(ctx: Ctx): string {
  if (ctx.auth.kind !== 'customer') throw unauthorized()
  return ctx.auth.customerId
}
