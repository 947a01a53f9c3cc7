// GET /v1/cli/listen/{organization_id}: the service's listen stream for its CLI (server/polar/cli/endpoints.py).
import {notFound} from '../../core/errors.js'
import type {Router} from '../../core/http.js'
import {pathId} from '../../core/toolkit.js'
import {hubOf} from './hub.js'

export function register(r: Router): void {
  r.get('/cli/listen/:id', 'organization', (ctx) => {
    if (pathId(ctx) !== ctx.store.data.organization.id) throw notFound()
    const hub = hubOf(ctx.env)
    return {status: 200, headers: {'cache-control': 'no-store'}, stream: {contentType: 'text/event-stream; charset=utf-8', open: (res) => hub.open(res)}}
  })
}
