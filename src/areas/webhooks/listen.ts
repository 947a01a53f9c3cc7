// `till listen`: what is printed for each event, forwarding to a local URL, and the messages about the
// stream (connected, dropped, the local server down). The stream itself is the client's (client/listen.ts).
import {ApiError} from '../../client/errors.js'
import {forwardEvent, type ForwardResult, type ListenMessage, type ListenState} from '../../client/listen.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {type ForwardTarget, targetWants} from './forward-targets.js'
import {verifyDelivery} from './verify.js'

export type StreamEvent = Extract<ListenMessage, {kind: 'event'}>

export interface ListenSettings {
  /** One target, for every event shown (the same as `targets: [{url: forwardTo, events: []}]`). */
  forwardTo?: string
  /** Where events are forwarded, each target with its own events (forward-targets.ts). */
  targets?: ForwardTarget[]
  /** Event types to show, and to forward to a target without its own; all when empty. */
  events: string[]
  /** Given the signing secret once connected, before the ready lines (to write it into a dotenv file). */
  onSecret?: (secret: string) => void
  /** Say that the signing secret went elsewhere (a dotenv file) rather than print it. */
  secretNote?: string
  json: boolean
  out: (line: string) => void
  /** The terminal's width when `out` is one: event lines fit it. */
  width?: number
  note: (line: string) => void
  debug: (line: string) => void
  now?: () => number
  forward?: (to: string, event: StreamEvent) => Promise<ForwardResult>
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** The id of the object an event is about (`data.id`), when it has one. */
function objectId(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as {data?: {id?: unknown}}).data?.id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/** A forward's outcome; `to` names its target when there are several. */
export function forwardText(r: ForwardResult, to?: string): string {
  const arrow = to ? `-> ${to}` : '->'
  return r.error ? `${arrow} failed: ${r.error}` : `${arrow} ${r.status} in ${r.ms} ms`
}

/** An id cut to its first 8 characters and an ellipsis. */
const shortId = (id: string) => (id.length > 9 ? `${id.slice(0, 8)}…` : id)

/**
 * One line per event: time, type, event id, object id, and the forward result. Within `width` (a
 * terminal's) when it can be: the time is given to the second without the date, then the type is not
 * padded, then the object id is shortened, then left out; the event id (what `webhooks redeliver` takes)
 * is cut last, and by the same steps whether events are forwarded or not. Without a width (piped),
 * everything in full.
 */
export function eventLine(at: number, event: StreamEvent, result?: ForwardResult, width?: number, to?: string): string {
  const id = objectId(event.body)
  const line = (short: number) => {
    const parts = [
      short >= 1 ? isoSeconds(at).slice(11, 19) : isoSeconds(at),
      short >= 2 ? event.type : event.type.padEnd(24),
      short >= 5 ? shortId(event.webhookEventId) : event.webhookEventId,
    ]
    if (id && short < 4) parts.push(`(${short >= 3 ? shortId(id) : id})`)
    if (result) parts.push(forwardText(result, to))
    return parts.join('  ')
  }
  let short = 0
  let text = line(0)
  while (width && text.length > width && short < 5) text = line(++short)
  return text
}

/** A target of the forwards with the events waiting for it, in the order they came. */
interface Target extends ForwardTarget {
  queue: Array<{at: number; event: StreamEvent}>
  /** The forwarding of the queue, while one is on its way (one at a time). */
  sending: Promise<void> | undefined
  /** Whether its last forward got no answer. */
  down: boolean
}

export class ListenPrinter {
  private secret?: string
  private warnedObjectForm = false
  private readonly now: () => number
  private readonly targets: Target[]

  constructor(private readonly s: ListenSettings) {
    this.now = s.now ?? Date.now
    const targets = s.targets ?? (s.forwardTo ? [{url: s.forwardTo, events: []}] : [])
    this.targets = targets.map((t) => ({...t, queue: [], sending: undefined, down: false}))
  }

  /** Whether an event of `type` is shown: one a target gets, or with no target one --events names. */
  wants(type: string): boolean {
    if (this.targets.length > 0) return this.targets.some((t) => targetWants(t, this.s.events, type))
    return this.s.events.length === 0 || this.s.events.includes(type)
  }

  /** Where events go, for the ready line: each target, with its own events. */
  private forwardingText(): string {
    if (this.targets.length === 0) return ''
    const each = this.targets.map((t) => (t.events.length > 0 ? `${t.url} (${t.events.join(', ')})` : t.url))
    return `, forwarding to ${each.join(' and ')}`
  }

  readonly onState = (state: ListenState): void => {
    if (state.state === 'connected') {
      this.secret = state.secret
      if (state.reconnects === 0) {
        this.s.onSecret?.(state.secret)
        this.s.note(`Ready: listening for events${this.s.events.length > 0 ? ` (${this.s.events.join(', ')})` : ''}${this.forwardingText()}. Ctrl-C to stop.`)
        this.s.note(this.s.secretNote ?? `Signing secret of forwarded events: ${state.secret} (till listen --print-secret prints it alone).`)
      } else this.s.debug(`listen stream open again (reconnect ${state.reconnects})`)
      return
    }
    // A reconnect message is routine: only --debug mentions it. A drop or a failure is worth a line.
    if (state.reason === 'reconnect message') this.s.debug('the service asked to reconnect; connecting again')
    else
      this.s.note(
        `The listen stream ${state.reason === 'dropped' ? 'was dropped' : `could not be opened (${state.detail})`}; connecting again${state.delayMs > 0 ? ` in ${Math.ceil(state.delayMs / 1000)} s` : ''}.`,
      )
  }

  readonly onEvent = async (event: StreamEvent): Promise<void> => {
    if (!this.wants(event.type)) {
      this.s.debug(`skipped ${event.type} ${event.webhookEventId} (not in --events)`)
      return
    }
    if (event.form === 'object') this.checkObjectForm(event)
    const at = this.now()
    if (this.s.json) this.s.out(event.body.includes('\n') ? JSON.stringify(JSON.parse(event.body)) : event.body)
    if (this.targets.length === 0) {
      if (!this.s.json) this.s.out(eventLine(at, event, undefined, this.s.width))
      return
    }
    // Forwarded to each target in the order they came, one at a time: the next is sent once the one before
    // has its answer or its failure (a forward that is not answered in FORWARD_TIMEOUT_MS of being sent
    // fails), so a year of the emulator's clock reaches a local server in time order however slowly it
    // answers. Each target has its own queue (a slow one holds back no other), and the stream goes on
    // meanwhile: the events wait here.
    for (const t of this.targets) {
      if (!targetWants(t, this.s.events, event.type)) continue
      t.queue.push({at, event})
      t.sending ??= this.drain(t)
    }
  }

  /** Resolves once every event forwarded so far has its answer (or its failure). */
  async settled(): Promise<void> {
    for (const t of this.targets) while (t.sending) await t.sending
  }

  /** Sends a target's queue one after the other; done (and `sending` cleared) in the turn the queue is empty. */
  private async drain(t: Target): Promise<void> {
    try {
      for (let next = t.queue.shift(); next; next = t.queue.shift()) await this.forward(next.at, next.event, t)
    } finally {
      t.sending = undefined
    }
  }

  private async forward(at: number, event: StreamEvent, t: Target): Promise<void> {
    const result = await (this.s.forward ?? forwardEvent)(t.url, event)
    // with several targets each line names its own
    const name = this.targets.length > 1 ? t.url : undefined
    if (this.s.json) {
      if (result.error) this.s.note(`${event.type} ${event.webhookEventId} ${forwardText(result, name)}`)
    } else this.s.out(eventLine(at, event, result, this.s.width, name))
    if (result.error && !t.down) {
      t.down = true
      this.s.note(`Nothing answers at ${t.url} (${result.error}); still listening, events are shown and forwarding resumes when it is back.`)
    } else if (!result.error && t.down) {
      t.down = false
      this.s.note(`${t.url} answers again.`)
    }
  }

  /** The older framing re-serialises the payload; say once if those bytes do not match the signature. */
  private checkObjectForm(event: StreamEvent): void {
    if (this.warnedObjectForm || !this.secret) return
    const headers = {id: event.headers['webhook-id'], timestamp: event.headers['webhook-timestamp'], signature: event.headers['webhook-signature']}
    const verdict = verifyDelivery(Buffer.from(event.body), headers, this.secret, {nowSeconds: this.now() / 1000, ignoreTimestamp: true})
    if (!verdict.valid) {
      this.warnedObjectForm = true
      this.s.note(
        'Warning: the service sent events as objects (older framing) and their re-serialised bytes do not match the signature; a receiver that verifies signatures may reject them.',
      )
    }
  }
}

/** The message for an answer the stream cannot get past, naming the profile and where its token came from. */
export function listenError(
  error: unknown,
  profile: {name: string; environment: string; baseUrl: string; tokenSource: string},
  organizationId: string,
): unknown {
  if (!(error instanceof ApiError)) return error
  const where = `profile "${profile.name}" (${profile.environment}, ${profile.baseUrl})`
  const token =
    {env: 'the TILL_TOKEN variable', profile: "the profile's stored token", emulator: "the emulator's token", none: 'no token'}[profile.tokenSource] ??
    'its token'
  if (error.status === 401) {
    return new TillError(
      `the listen stream refused the token of ${where}: ${token} is invalid, expired or revoked`,
      ExitCode.auth,
      'sign in again with: till auth login (or set TILL_TOKEN)',
    )
  }
  if (error.status === 403) {
    return new TillError(
      `the token of ${where} (${token}) may not listen: it needs the webhooks:read or webhooks:write scope`,
      ExitCode.auth,
      'create a token with a webhooks scope, then: till auth login',
    )
  }
  if (error.status === 404 || error.status === 422) {
    return new TillError(
      `organization ${organizationId} was not found with the token of ${where}`,
      ExitCode.notFound,
      "check the profile's organization id (till profiles show), or remove it so till asks the API",
    )
  }
  return error
}
