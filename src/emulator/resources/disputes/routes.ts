// Disputes (server/polar/dispute): list, get, and accept (conceding the chargeback settles it as lost).
// They are opened by the seed and by the control surface (`POST /_emulator/orders/{id}/dispute`).
import {domainError} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {byField} from '../../core/list.js'
import {finder, getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import {iso} from '../../core/seeding.js'
import type {DisputeRecord} from './model.js'
import {dispute} from './present.js'

const STATUSES = ['prevented', 'early_warning', 'needs_response', 'under_review', 'lost', 'won'] as const

const findDispute = finder('disputes')

export function register(r: Router): void {
  listRoute(r, 'disputes:list', (ctx: Ctx) => ctx.store.all('disputes'), {
    present: dispute,
    filters: {
      organization_id: organizationScope,
      order_id: byField('uuid', (d: DisputeRecord) => d.order_id),
      status: byField(STATUSES, (d: DisputeRecord) => d.status),
    },
    sorts: {created_at: (d) => d.created_at, amount: (d) => d.amount},
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'disputes:get', findDispute, dispute)

  r.post('/disputes/:id/accept', 'organization', (ctx) => {
    const id = pathId(ctx)
    const d = ctx.store.write(() => {
      const d = findDispute(ctx, id)
      if (d.status !== 'needs_response') throw domainError(409, 'DisputeNotOpenError', `Dispute ${d.id} is not awaiting a response.`)
      d.status = 'lost'
      d.modified_at = iso(ctx.now)
      return d
    })
    return ok(dispute(ctx.view, d))
  })
}
