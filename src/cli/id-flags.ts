// Which flags take a resource's id, derived from the resources' descriptions (one noun each): a flag named
// after a noun (`--order`, `--payment-method`), `--remove-<noun>`, `--<noun>-id` or `--as-<noun>-id`
// takes that resource's id, a UUID or a prefix a table showed. The few flags so named that take something
// else are listed with what they take, and the few that name a resource by another word with its noun.
import {RESOURCES, isListed, type ResourceDescription} from '../client/resources/described.js'

/** Flags named after a resource whose value is no id of it. */
const NOT_IDS: Readonly<Record<string, string>> = {
  file: 'a path to write to (the exports)',
  event: 'an event type to send (webhooks endpoints)',
  'event-type': 'an event type, such as order.created',
  organization: 'an organization id or slug (till auth login), before any profile exists',
  metric: 'a metric by its name (metrics export)',
}

/** Flags that name a resource by another word than its noun. */
const OTHER_WORDS: Readonly<Record<string, string>> = {
  parent: 'event',
  dashboard: 'metric-dashboard',
  endpoint: 'webhook-endpoint',
  'as-member': 'member',
}

export interface IdFlag {
  /** What the flag names in messages: `order id (--order)`. */
  what: string
  /** The command that lists the resource's ids whole, when one does. */
  list?: string
}

const slug = (noun: string) => noun.toLowerCase().replaceAll(' ', '-')

/** The described resource a noun-shaped name (`order`, `payment-method`) names; the API's own before the portal's. */
export function resourceNamed(name: string): ResourceDescription | undefined {
  return (RESOURCES as readonly ResourceDescription[]).find((r) => slug(r.noun) === name)
}

/** The command that lists a resource's objects, ids whole with `--columns id`. */
export function listCommand(resource: ResourceDescription | undefined): string | undefined {
  return resource && isListed(resource) ? `till ${resource.topic} list` : undefined
}

/** Whether the flag `name` takes a resource's id, and which; undefined for any other flag. */
export function idFlag(name: string): IdFlag | undefined {
  if (name in NOT_IDS) return undefined
  const withId = /^(?:as-)?(.+)-id$/.exec(name)?.[1]
  const named = resourceNamed(OTHER_WORDS[name] ?? name.replace(/^remove-/, ''))
  const resource = named ?? (withId === undefined ? undefined : resourceNamed(withId))
  if (!resource) return undefined
  return {what: `${resource.noun} id (--${name})`, list: listCommand(resource)}
}
