// `till trigger EVENT`: the service's trigger routes for its own CLI (PR #14347, server/polar/cli): the
// service builds a fixture payload of the event (nothing is created) and sends it to the organization's
// `till listen` stream, or only answers it (`deliver: false`, `--json`). The flags are those of the service's
// own `polar trigger` (`--override path=value`, `--seed N`, `--json`, `--list`).
import type {ApiClient} from '../../client/client.js'
import {ApiError} from '../../client/errors.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {ALL_WEBHOOK_EVENTS} from '../../client/webhook-events.js'
import {nearestName} from '../../cli/suggest.js'

export interface TriggerableEvent {
  type: string
  description: string
}

export interface TriggerRequest {
  event: string
  overrides: Record<string, unknown>
  seed: number | null
  deliver: boolean
}

export interface TriggerAnswer {
  webhook_event_id: string
  event: string
  delivered: boolean
  payload: Record<string, unknown>
}

/** What can be triggered, with when the service sends each (`GET /v1/cli/events`). */
export const triggerableEvents = (client: ApiClient) => client.get<TriggerableEvent[]>('/cli/events')

/**
 * One `--override path=value`: the path from the payload's root (`data.amount`), the value parsed as JSON
 * where it parses (`1500`, `true`, `null`, `{"a":1}`), else the text as it is (as the service's CLI does).
 */
export function parseOverride(text: string): [string, unknown] {
  const at = text.indexOf('=')
  const path = at === -1 ? '' : text.slice(0, at).trim()
  if (path === '') {
    const example = 'e.g. --override data.amount=1500 --override data.customer.email=a@example.com'
    throw usageError(`--override takes path=value, not "${text.slice(0, 60)}"`, example)
  }
  const raw = text.slice(at + 1)
  try {
    return [path, JSON.parse(raw)]
  } catch {
    return [path, raw]
  }
}

/** The overrides of every `--override`, a later one of the same path winning. */
export function overridesOf(flags: readonly string[] | undefined): Record<string, unknown> {
  const overrides: Record<string, unknown> = {}
  for (const text of flags ?? []) {
    const [path, value] = parseOverride(text)
    overrides[path] = value
  }
  return overrides
}

/** A 422's place without the request's own segments: ["body", "overrides", "data.amount"] -> data.amount. */
export function overridePath(loc: ReadonlyArray<string | number> | undefined): string {
  const parts = [...(loc ?? [])]
  if (parts[0] === 'body') parts.shift()
  if (parts[0] === 'overrides') parts.shift()
  return parts.join('.')
}

export interface TriggerWhere {
  organizationId: string
  profile: string
}

/** Sends the request; the service's refusals as till's errors (a 409 names the `till listen` to run). */
export async function triggerEvent(client: ApiClient, where: TriggerWhere, request: TriggerRequest) {
  const path = `/cli/trigger/${encodeURIComponent(where.organizationId)}`
  try {
    // without delivery the answer is only computed: safe to send again when an answer is lost
    return await client.post<TriggerAnswer>(path, request, {replayable: !request.deliver})
  } catch (error) {
    throw refusal(error, where, request)
  }
}

function refusal(error: unknown, where: TriggerWhere, request: TriggerRequest): unknown {
  if (!(error instanceof ApiError)) return error
  if (error.status === 409 && error.code === 'NoActiveListener') {
    return new TillError(
      `nothing is listening for the events of organization ${where.organizationId}, so ${request.event} was not sent`,
      ExitCode.error,
      `run in another terminal: till listen --profile ${where.profile} (with --forward-to URL for your server), ` +
        `or print the payload alone: till trigger ${request.event} --json`,
    )
  }
  if (error.status === 404 && (error.code === 'ResourceNotFound' || error.code === undefined)) {
    return new TillError(
      `organization ${where.organizationId} was not found with the token of profile "${where.profile}"`,
      ExitCode.notFound,
      "check the profile's organization id (till profiles show), or remove it so till asks the API",
    )
  }
  const event = error.status === 422 && error.details.length === 1 && overridePath(error.details[0]!.loc) === 'event'
  if (event) {
    const meant = nearestName(request.event, ALL_WEBHOOK_EVENTS)
    return usageError(
      `the service cannot trigger "${request.event.slice(0, 60)}"${meant ? `; did you mean ${meant}?` : ''}`,
      'the events it can trigger: till trigger --list',
    )
  }
  if (error.status === 422 && error.details.length > 0) {
    const lines = error.details.map((d) => {
      const path = overridePath(d.loc)
      return `  ${path === '' ? 'the request' : path}: ${d.msg ?? d.type ?? 'invalid'}`
    })
    return new TillError(['the service refused the trigger', ...lines].join('\n'), ExitCode.usage)
  }
  return error
}
