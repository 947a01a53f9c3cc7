// The service's private routes for its CLI's `polar trigger` (PR #14347, server/polar/cli/endpoints.py and
// service.py): `GET /v1/cli/events` lists what can be triggered; `POST /v1/cli/trigger/{organization_id}`
// builds a fixture payload of one event (nothing is stored), applies the overrides and, when `deliver`, sends
// it to the organization's listen stream, refusing with 409 NoActiveListener when none is open.
import {WEBHOOK_EVENTS} from '../../../client/webhook-events.js'
import {domainError, notFound} from '../../core/errors.js'
import {ok, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {pathId} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {z} from '../../core/zod.js'
import {hubOf} from '../listen/hub.js'
import {EVENT_DESCRIPTIONS} from './events.js'
import {buildPayload, TRIGGER_API_VERSION} from './fixtures.js'
import {applyOverrides, rejectDropped, serialized} from './overrides.js'

/** The event types that can be triggered: every one the service sends (SUPPORTED_EVENTS). */
export const TRIGGER_EVENTS: readonly string[] = WEBHOOK_EVENTS

const triggerRequest = z.object({
  event: z.enum(WEBHOOK_EVENTS as unknown as [string, ...string[]]),
  overrides: z.record(z.string(), z.unknown()).default({}),
  seed: z.int().nullish(),
  deliver: z.boolean().default(true),
})

export function register(r: Router): void {
  const events = () => TRIGGER_EVENTS.map((type) => ({type, description: EVENT_DESCRIPTIONS[type] ?? ''}))
  r.get('/cli/events', 'organization', () => ok(events()))

  r.post('/cli/trigger/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(triggerRequest, ctx.body)
    const organization = ctx.store.data.organization
    if (id !== organization.id) throw notFound()
    const fixture = buildPayload(ctx.env, input.event, input.seed ?? null)
    const overridden = structuredClone(fixture)
    applyOverrides(overridden, input.overrides as Record<string, unknown>)
    const payload = serialized(overridden, fixture) as Record<string, unknown>
    rejectDropped(payload, input.overrides as Record<string, unknown>)
    const webhookEventId = uuid()
    if (input.deliver) {
      const hub = hubOf(ctx.env)
      if (hub.size === 0) {
        const run = 'Run `polar listen <url>` in another terminal first.'
        const detail = `No CLI is listening for ${organization.slug}. ${run}`
        throw domainError(409, 'NoActiveListener', detail)
      }
      hub.publish(JSON.stringify(payload), webhookEventId, true, TRIGGER_API_VERSION)
    }
    return ok({webhook_event_id: webhookEventId, event: input.event, delivered: input.deliver, payload})
  })
}
