// The clock's control routes, outside /v1 (the API's surface stays the service's):
//
//   GET  /_emulator/clock           the environment's time, how far it runs ahead, what was settled
//   POST /_emulator/clock/advance   {"duration": "35d" | "1mo" | "1y" | ...} or {"to": DATE}, and optionally
//                                   {"until_next": EVENT_TYPE}: time moves and what falls due is settled
//   POST /_emulator/clock/reset     back to the wall clock, unless that would go back past what was settled
//
// A walk is bounded: past WALK_YEARS from the clock's time it is refused unless the request says `far`, and
// past the last date a JavaScript clock holds it is refused always (422). Its start and target are read inside
// its first store write (another process may have moved the clock since the request came): see walk.ts.
import {z} from '../../core/zod.js'

import {ALL_WEBHOOK_EVENTS} from '../../../client/webhook-events.js'
import {DURATION_UNITS, durationParts, LAST_DATE, LAST_TIME_MS} from '../../../client/durations.js'
import {calendarProblem, parseIsoTime} from '../../../client/iso-time.js'
import {domainError} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {parse} from '../../core/validate.js'
import {addInterval} from '../subscriptions/periods.js'
import {iso} from '../subscriptions/lifecycle.js'
import {clockOf} from './model.js'
import {advance, walking} from './walk.js'

const PREFIX = '/_emulator/clock'
/** How far `until_next` looks before it gives up. */
const UNTIL_NEXT_YEARS = 5
/** How far one walk goes without `far`: a slip (`200000y` for `2y`) would otherwise walk for hours. */
export const WALK_YEARS = 10

/**
 * `from` moved by a duration such as `35d`, `1mo`, `1y`, `2w3d` or `12h` (months and years by the calendar);
 * undefined when `text` is not a duration, NaN when it goes past what a clock can hold.
 */
export function addDuration(from: number, text: string): number | undefined {
  const parts = durationParts(text)
  if (!parts) return undefined
  let at = from
  for (const {count, unit} of parts) {
    if (!Number.isSafeInteger(count)) return Number.NaN
    if (unit === 'mo' || unit === 'y') at = addInterval(at, unit === 'mo' ? 'month' : 'year', count)
    else at += count * DURATION_UNITS[unit]!
    if (!(at <= LAST_TIME_MS)) return Number.NaN
  }
  return at
}

const advanceBody = z
  .object({duration: z.string().optional(), to: z.string().optional(), until_next: z.string().optional(), far: z.boolean().optional()})
  .refine((b) => [b.duration, b.to].filter((v) => v !== undefined).length <= 1, 'Give a duration or a date to advance to, not both.')

type AdvanceInput = z.infer<typeof advanceBody>

function clockState(ctx: Ctx) {
  const {offset_ms, settled_to} = clockOf(ctx.store.data)
  const wall_clock = iso(ctx.env.options.now())
  return {environment: ctx.env.name, now: iso(ctx.now), offset_ms, settled_to, wall_clock, walking: walking(ctx.env)}
}

const unreachable = (what: string) => {
  const detail = `${what} goes past the last date a clock can hold (${LAST_DATE}): give a nearer one.`
  return domainError(422, 'ClockOutOfRange', detail)
}

/** Where a walk from `from` (the clock's time, read inside the walk's write) goes, or why it may not. */
function target(env: string, from: number, input: AdvanceInput): number {
  let at: number
  let what: string
  if (input.to !== undefined) {
    what = `"${input.to}"`
    at = parseIsoTime(input.to)
    const calendar = calendarProblem(input.to)
    if (Number.isNaN(at)) {
      const why = calendar ? ` (${calendar})` : ''
      throw domainError(422, 'InvalidClockTarget', `"${input.to}" is not a date${why}: give one such as 2027-01-31 or 2027-01-31T12:00:00Z.`)
    }
    if (at > LAST_TIME_MS) throw unreachable(what)
    if (at <= from) {
      throw domainError(409, 'ClockNotForward', `${iso(at)} is not after the ${env} clock's time (${iso(from)}): the clock only moves forward.`)
    }
  } else if (input.duration !== undefined) {
    what = `"${input.duration}"`
    const moved = addDuration(from, input.duration)
    if (moved === undefined || moved <= from) {
      throw domainError(422, 'InvalidClockDuration', `"${input.duration}" is not a duration: give one such as 35d, 1mo, 1y, 2w3d or 12h.`)
    }
    if (Number.isNaN(moved)) throw unreachable(what)
    at = moved
  } else if (input.until_next !== undefined) {
    return addInterval(from, 'year', UNTIL_NEXT_YEARS)
  } else {
    throw domainError(422, 'InvalidClockTarget', 'Give how far to advance (a duration such as 35d, 1mo or 1y), a date, or an event type to advance until.')
  }
  const bound = addInterval(from, 'year', WALK_YEARS)
  if (at > bound && input.far !== true) {
    const how = 'give a nearer one, or pass --far ("far": true) to walk that far'
    const detail = `${what} moves the ${env} clock to ${iso(at)}, more than ${WALK_YEARS} years ahead: ${how}.`
    throw domainError(422, 'ClockTooFar', detail)
  }
  return at
}

export function register(r: Router): void {
  r.addAbsolute('GET', PREFIX, 'organization', (ctx) => ok(clockState(ctx)))
  r.addAbsolute('POST', `${PREFIX}/advance`, 'organization', async (ctx) => {
    const input = parse(advanceBody, ctx.body ?? {})
    if (input.until_next !== undefined && !ALL_WEBHOOK_EVENTS.includes(input.until_next)) {
      throw domainError(422, 'InvalidEventType', `"${input.until_next}" is not a webhook event type (e.g. subscription.cycled, order.paid).`)
    }
    const targetOf = (from: number) => target(ctx.env.name, from, input)
    const walked = await advance(ctx.env, {targetOf, untilNext: input.until_next, signal: ctx.signal})
    return ok({environment: ctx.env.name, ...walked})
  })
  r.addAbsolute('POST', `${PREFIX}/reset`, 'organization', (ctx) => {
    const wall = ctx.env.options.now()
    // read inside the write: another process's walk may have settled past the wall clock since
    ctx.store.write(() => {
      const {settled_to} = clockOf(ctx.store.data)
      if (settled_to !== null && Date.parse(settled_to) > wall) {
        throw domainError(
          409,
          'ClockSettled',
          `The ${ctx.env.name} clock settled everything up to ${settled_to}, after the wall clock's ${iso(wall)}: going back would undo it. Seed the emulator again (till emulator reset), which puts the clocks back too.`,
        )
      }
      ctx.store.data.clock = {offset_ms: 0, settled_to: null}
    })
    return ok({...clockState(ctx), now: iso(wall), offset_ms: 0, settled_to: null})
  })
}
