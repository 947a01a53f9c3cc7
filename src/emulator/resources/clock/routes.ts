// The clock's control routes, outside /v1 (the API's surface stays the service's):
//
//   GET  /_emulator/clock           the environment's time, how far it runs ahead, what was settled
//   POST /_emulator/clock/advance   {"duration": "35d" | "1mo" | "1y" | ...} or {"to": DATE}, and optionally
//                                   {"until_next": EVENT_TYPE}: time moves and what falls due is settled
//   POST /_emulator/clock/reset     back to the wall clock, unless that would go back past what was settled
import {z} from '../../core/zod.js'

import {ALL_WEBHOOK_EVENTS} from '../../../client/webhook-events.js'
import {domainError} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {parse} from '../../core/validate.js'
import {addInterval} from '../subscriptions/periods.js'
import {iso} from '../subscriptions/lifecycle.js'
import {clockOf} from './model.js'
import {advance} from './walk.js'

const PREFIX = '/_emulator/clock'
const UNITS: Record<string, number> = {s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000}
/** How far `until_next` looks before it gives up. */
const UNTIL_NEXT_YEARS = 5

/** `from` moved by a duration such as `35d`, `1mo`, `1y`, `2w3d` or `12h` (months and years by the calendar). */
export function addDuration(from: number, text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+)(mo|y|w|d|h|m|s)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined
  let at = from
  for (const [, n, unit] of parts) {
    const count = Number(n)
    if (unit === 'mo' || unit === 'y') at = addInterval(at, unit === 'mo' ? 'month' : 'year', count)
    else at += count * UNITS[unit!]!
  }
  return at
}

const advanceBody = z
  .object({duration: z.string().optional(), to: z.string().optional(), until_next: z.string().optional()})
  .refine((b) => [b.duration, b.to].filter((v) => v !== undefined).length <= 1, 'Give a duration or a date to advance to, not both.')

function clockState(ctx: Ctx) {
  const {offset_ms, settled_to} = clockOf(ctx.store.data)
  return {environment: ctx.env.name, now: iso(ctx.now), offset_ms, settled_to, wall_clock: iso(ctx.env.options.now())}
}

function target(ctx: Ctx, input: {duration?: string; to?: string; until_next?: string}): number {
  if (input.to !== undefined) {
    const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(input.to) ? `${input.to}T00:00:00Z` : input.to)
    if (Number.isNaN(at)) throw domainError(422, 'InvalidClockTarget', `"${input.to}" is not a date: give one such as 2027-01-31 or 2027-01-31T12:00:00Z.`)
    if (at <= ctx.now) {
      throw domainError(409, 'ClockNotForward', `${iso(at)} is not after the ${ctx.env.name} clock's time (${iso(ctx.now)}): the clock only moves forward.`)
    }
    return at
  }
  if (input.duration !== undefined) {
    const at = addDuration(ctx.now, input.duration)
    if (at === undefined || at <= ctx.now) {
      throw domainError(422, 'InvalidClockDuration', `"${input.duration}" is not a duration: give one such as 35d, 1mo, 1y, 2w3d or 12h.`)
    }
    return at
  }
  if (input.until_next !== undefined) return addInterval(ctx.now, 'year', UNTIL_NEXT_YEARS)
  throw domainError(422, 'InvalidClockTarget', 'Give how far to advance (a duration such as 35d, 1mo or 1y), a date, or an event type to advance until.')
}

export function register(r: Router): void {
  r.addAbsolute('GET', PREFIX, 'organization', (ctx) => ok(clockState(ctx)))
  r.addAbsolute('POST', `${PREFIX}/advance`, 'organization', (ctx) => {
    const input = parse(advanceBody, ctx.body ?? {})
    if (input.until_next !== undefined && !ALL_WEBHOOK_EVENTS.includes(input.until_next)) {
      throw domainError(422, 'InvalidEventType', `"${input.until_next}" is not a webhook event type (e.g. subscription.cycled, order.paid).`)
    }
    return ok({environment: ctx.env.name, ...advance(ctx.env, ctx.now, target(ctx, input), input.until_next)})
  })
  r.addAbsolute('POST', `${PREFIX}/reset`, 'organization', (ctx) => {
    const wall = ctx.env.options.now()
    const {settled_to} = clockOf(ctx.store.data)
    if (settled_to !== null && Date.parse(settled_to) > wall) {
      throw domainError(
        409,
        'ClockSettled',
        `The ${ctx.env.name} clock settled everything up to ${settled_to}, after the wall clock's ${iso(wall)}: going back would undo it. Seed the emulator again (till emulator reset), which puts the clocks back too.`,
      )
    }
    ctx.store.write(() => {
      ctx.store.data.clock = {offset_ms: 0, settled_to: null}
    })
    return ok({...clockState(ctx), now: iso(wall), offset_ms: 0, settled_to: null})
  })
}
