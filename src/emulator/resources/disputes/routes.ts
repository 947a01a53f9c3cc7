// Disputes (server/polar/dispute): list, get, and accept (conceding the chargeback settles it as lost).
// They are opened by the seed and by the control surface (`POST /_emulator/orders/{id}/dispute`).
import {domainError, notFound} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {byField, listRows} from '../../core/list.js'
import {iso} from '../../core/seeding.js'
import {pathUuid} from '../../core/validate.js'
import type {DisputeRecord} from './model.js'
import {dispute} from './present.js'

const STATUSES = ['prevented', 'early_warning', 'needs_response', 'under_review', 'lost', 'won'] as const

function findDispute(ctx: Ctx, id: string): DisputeRecord {
  const d = ctx.store.get('disputes', id)
  if (!d) throw notFound()
  return d
}

export function register(r: Router): void {
  r.get('/disputes/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.all('disputes'),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            order_id: byField('uuid', (d: DisputeRecord) => d.order_id),
            status: byField(STATUSES, (d: DisputeRecord) => d.status),
          },
          sorts: {created_at: (d) => d.created_at, amount: (d) => d.amount},
          defaultSort: ['-created_at'],
        },
        (d) => dispute(ctx.view, d),
      ),
    ),
  )

  r.get('/disputes/:id', 'organization', (ctx) => ok(dispute(ctx.view, findDispute(ctx, pathUuid(ctx.params)))))

  r.post('/disputes/:id/accept', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
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
