// What the webhook commands share: the event names, secrets kept out of output, and picking events.
import type {Item} from '../../client/resources/common.js'
import {usageError} from '../../client/till-error.js'
import type {Prompter} from '../../cli/prompt.js'
import {maskToken} from '../../client/redact.js'
import {WEBHOOK_EVENTS, type WebhookEventType} from '../../client/webhook-events.js'

export {WEBHOOK_EVENTS}

/** The endpoint with its signing secret masked: the secret is shown once, when the endpoint is created. */
export const withMaskedSecret = (endpoint: Item): Item =>
  typeof endpoint.secret === 'string' ? {...endpoint, secret: maskToken(endpoint.secret)} : endpoint

/**
 * The events to subscribe to: `--event` values, every event with `--all-events`, or (neither given, on
 * a terminal) a checklist. Undefined when `optional` and nothing was given (an update keeps its events).
 */
export async function chosenEvents(
  flags: {event?: string[]; 'all-events'?: boolean},
  prompter: Prompter,
  optional = false,
): Promise<WebhookEventType[] | undefined> {
  if (flags.event && flags['all-events']) throw usageError('give --event or --all-events, not both')
  if (flags['all-events']) return [...WEBHOOK_EVENTS]
  // --event takes only WEBHOOK_EVENTS (the flag's options)
  if (flags.event) return [...new Set(flags.event)] as WebhookEventType[]
  if (optional) return undefined
  if (!prompter.interactive) {
    throw usageError('missing --event: the events to send (repeat --event, or pass --all-events)', 'e.g. --event order.paid --event subscription.canceled')
  }
  const {checkbox} = await import('@inquirer/prompts')
  return checkbox({
    message: 'Events to send (space selects, enter confirms)',
    choices: WEBHOOK_EVENTS.map((e) => ({name: e, value: e as WebhookEventType})),
    pageSize: 15,
    required: true,
  })
}
