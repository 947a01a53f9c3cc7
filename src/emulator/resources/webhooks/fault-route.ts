// POST /_emulator/webhooks/endpoints/{id}/faults: the delivery faults of one endpoint (faults.ts), in place of
// the emulator's (`--webhook-faults`) for the events raised from now on.
import {z} from '../../core/zod.js'

import {parseDuration} from '../../../client/duration.js'
import {domainError} from '../../core/errors.js'
import {ok, type Ctx, type Handler} from '../../core/http.js'
import {lookup, pathId} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {faultsJson, NO_FAULTS, type WebhookFaults} from './faults.js'

const fraction = z.number().min(0).max(1).default(0)
const body = z.object({
  duplicate: fraction,
  reorder: fraction,
  fail_first: fraction,
  drop: fraction,
  delay: z.string().optional(),
  delay_ms: z.int().min(0).max(3_600_000).optional(),
  inherit: z.boolean().optional(),
})

export const setEndpointFaults: Handler = (ctx: Ctx) => {
  const id = lookup(ctx, 'webhook_endpoints', pathId(ctx)).id
  const input = parse(body, ctx.body ?? {})
  let delayMs = input.delay_ms ?? 0
  if (input.delay !== undefined) {
    try {
      delayMs = parseDuration(input.delay)
    } catch (error) {
      throw domainError(422, 'InvalidFaults', `delay: ${(error as Error).message}`)
    }
  }
  const faults: WebhookFaults | undefined = input.inherit
    ? undefined
    : {...NO_FAULTS, duplicate: input.duplicate, reorder: input.reorder, failFirst: input.fail_first, drop: input.drop, delayMs}
  ctx.store.write(() => {
    const endpoint = lookup(ctx, 'webhook_endpoints', id)
    if (faults) endpoint.faults = faults
    else delete endpoint.faults
  })
  return ok({webhook_endpoint_id: id, inherited: faults === undefined, ...(faults ? faultsJson(faults) : {})})
}
