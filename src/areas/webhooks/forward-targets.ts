// `till listen --forward-to URL --events a,b --forward-to URL2 --events c`: the targets of the forwards, each
// with the events it gets. Each --events belongs to the --forward-to before it; one before every
// --forward-to (or with none) is the filter of what is shown and of the targets that name no events.
import {usageError} from '../../client/till-error.js'
import {WEBHOOK_EVENTS} from '../../client/webhook-events.js'

export interface ForwardTarget {
  url: string
  /** Its own event types; empty: the shown ones (every one when --events names none). */
  events: string[]
}

/** A flag as oclif's parser hands it over, in the order of the command line. */
interface RawFlag {
  type: string
  flag?: string
  input: string
}

export interface Forwarding {
  /** Event types shown (and forwarded to targets without their own); all when empty. */
  events: string[]
  targets: ForwardTarget[]
}

function eventList(value: string): string[] {
  const events = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e))
  if (unknown.length > 0) throw usageError(`--events: unknown event type ${unknown.join(', ')}`, `event types are: ${WEBHOOK_EVENTS.join(', ')}`)
  return events
}

function targetUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    const what = url ? url.protocol.replace(/:$/, '') : `"${value}"`
    throw usageError(`--forward-to must be an http or https URL, not ${what}`, 'e.g. --forward-to http://localhost:3000/api/webhooks')
  }
  return url.toString()
}

/** The targets of `raw` (the parser's tokens), each --events paired with the --forward-to before it. */
export function forwarding(raw: readonly RawFlag[]): Forwarding {
  const shown: string[] = []
  const targets: ForwardTarget[] = []
  for (const token of raw) {
    if (token.type !== 'flag') continue
    if (token.flag === 'forward-to') targets.push({url: targetUrl(token.input), events: []})
    else if (token.flag === 'events') (targets.at(-1)?.events ?? shown).push(...eventList(token.input))
  }
  for (const t of targets) t.events = [...new Set(t.events)]
  return {events: [...new Set(shown)], targets}
}

/** Whether `target` gets events of `type`, `shown` being the filter of targets without their own. */
export function targetWants(target: ForwardTarget, shown: readonly string[], type: string): boolean {
  const events = target.events.length > 0 ? target.events : shown
  return events.length === 0 || events.includes(type)
}
