// What the webhook commands share: the event names, secrets kept out of output, and picking events.
import type {Item} from '../../client/resources/common.js'
import {usageError} from '../../client/till-error.js'
import type {Prompter} from '../../cli/prompt.js'
import {isLoopbackHost} from '../../client/origin.js'
import {maskToken} from '../../client/redact.js'
import type {ApiVersion} from '../../client/version.js'
import type {Schema} from '../../client/wire/index.js'
import {ALL_WEBHOOK_EVENTS, WEBHOOK_EVENTS, WEBHOOK_EVENTS_BY_VERSION} from '../../client/webhook-events.js'

export {ALL_WEBHOOK_EVENTS, WEBHOOK_EVENTS}

type WebhookEventType = Schema<'WebhookEventType'>

/** The endpoint with its signing secret masked: the secret is shown once, when the endpoint is created. */
export const withMaskedSecret = (endpoint: Item): Item => (typeof endpoint.secret === 'string' ? {...endpoint, secret: maskToken(endpoint.secret)} : endpoint)

/**
 * The note for an endpoint an emulator will not send to: its URL is on another host than this machine's, and
 * the emulator posts only to loopback unless it was started with --allow-remote-webhooks. Undefined otherwise.
 */
export function emulatorKeepsDeliveries(environment: string, url: string | undefined): string | undefined {
  if (environment !== 'local' || url === undefined) return undefined
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    return undefined
  }
  if (isLoopbackHost(host)) return undefined
  return (
    `The emulator sends nothing to ${url}: its deliveries to a URL off this machine are recorded as not sent ` +
    '(till webhooks deliveries list). To send them, run it with: till emulator start --allow-remote-webhooks'
  )
}

/**
 * The events to subscribe to, among those of the API version in use: `--event` values, every event with
 * `--all-events`, or (neither given, on a terminal) a checklist. Undefined when `optional` and nothing
 * was given (an update keeps its events).
 */
export async function chosenEvents(
  flags: {event?: string[]; 'all-events'?: boolean},
  prompter: Prompter,
  version: ApiVersion,
  optional = false,
): Promise<WebhookEventType[] | undefined> {
  // the generated lists are the document's WebhookEventType enum and the changes since, per version
  const known = WEBHOOK_EVENTS_BY_VERSION[version] as readonly WebhookEventType[]
  if (flags.event && flags['all-events']) throw usageError('give --event or --all-events, not both')
  if (flags['all-events']) return [...known]
  if (flags.event) {
    const unknown = flags.event.filter((e) => !known.includes(e as WebhookEventType))
    if (unknown.length > 0)
      throw usageError(`--event ${unknown.join(', ')}: not an event type of API version ${version}`, `its event types are: ${known.join(', ')}`)
    return [...new Set(flags.event)] as WebhookEventType[]
  }
  if (optional) return undefined
  if (!prompter.interactive) {
    throw usageError('missing --event: the events to send (repeat --event, or pass --all-events)', 'e.g. --event order.paid --event subscription.canceled')
  }
  const {checkbox} = await import('@inquirer/prompts')
  return checkbox({
    message: 'Events to send (space selects, enter confirms)',
    choices: known.map((e) => ({name: e, value: e})),
    pageSize: 15,
    required: true,
  })
}
