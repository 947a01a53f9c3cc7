// Webhook deliveries that misbehave on purpose, so a receiver meets before production what the service's
// delivery may do to it (server/polar/webhook/tasks.py retries a delivery that got no 2xx): a duplicate with
// the same `webhook-id` (its acknowledgement lost), one out of order, a delay, a failed first attempt retried
// on the service's schedule, and a drop. Set for the whole emulator (`till emulator start --webhook-faults`)
// or per endpoint (POST /_emulator/webhooks/endpoints/{id}/faults); drawn from a seeded generator, so the
// same seed and the same events give the same faults.
import {parseDuration} from '../../../client/duration.js'
import type {Random} from '../../core/ids.js'

export interface WebhookFaults {
  /** Fraction of events delivered, then recorded as failed (the answer lost) and retried with the same id. */
  duplicate: number
  /** Fraction of events whose first attempt goes after the next event's to the same endpoint. */
  reorder: number
  /** How long every event waits before its first attempt (in order). */
  delayMs: number
  /** Fraction of events whose first attempt fails without reaching the endpoint; retried on the schedule. */
  failFirst: number
  /** Fraction of events never delivered: recorded as one failed delivery, not retried. */
  drop: number
}

export const NO_FAULTS: WebhookFaults = {duplicate: 0, reorder: 0, delayMs: 0, failFirst: 0, drop: 0}

/** What happens to one event on its way to one endpoint. */
export interface FaultPlan {
  drop: boolean
  failFirst: boolean
  duplicate: boolean
  reorder: boolean
  delayMs: number
}

const RATES = {duplicate: 'duplicate', reorder: 'reorder', 'fail-first': 'failFirst', drop: 'drop'} as const

const rate = (value: string, name: string): number => {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new Error(`${name} must be a number from 0 to 1, got "${value}"`)
  return n
}

/** `duplicate=0.2,reorder=0.1,delay=2s,fail-first=0.3,drop=0.05`: any of them, in any order; the rest 0. */
export function parseWebhookFaults(text: string): WebhookFaults {
  const faults = {...NO_FAULTS}
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name = '', value = ''] = part.split('=', 2).map((s) => s.trim())
    if (name === 'delay') faults.delayMs = parseDuration(value)
    else if (name in RATES) faults[RATES[name as keyof typeof RATES]] = rate(value, name)
    else throw new Error(`"${part}" is not a fault; use duplicate=, reorder=, delay=, fail-first= or drop=`)
  }
  return faults
}

export const isFaultless = (f: WebhookFaults): boolean => f.duplicate === 0 && f.reorder === 0 && f.delayMs === 0 && f.failFirst === 0 && f.drop === 0

/**
 * The faults of one event: four draws whatever is set, so that one fault's rate does not change which
 * events another falls on. A dropped event has no other fault.
 */
export function planFaults(f: WebhookFaults, random: Random): FaultPlan {
  const [drop, failFirst, duplicate, reorder] = [random() < f.drop, random() < f.failFirst, random() < f.duplicate, random() < f.reorder]
  return drop ? {drop, failFirst: false, duplicate: false, reorder: false, delayMs: 0} : {drop, failFirst, duplicate, reorder, delayMs: f.delayMs}
}

/** The names of a plan's faults, for the log. */
export const faultNames = (p: FaultPlan): string[] =>
  [p.drop && 'drop', p.failFirst && 'fail-first', p.duplicate && 'duplicate', p.reorder && 'reorder', p.delayMs > 0 && 'delay'].filter(
    (n): n is string => typeof n === 'string',
  )

/** The wire form of faults (the control route's body and answer): `delay` in milliseconds. */
export const faultsJson = (f: WebhookFaults) => ({
  duplicate: f.duplicate,
  reorder: f.reorder,
  delay_ms: f.delayMs,
  fail_first: f.failFirst,
  drop: f.drop,
})
