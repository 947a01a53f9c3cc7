// Small pieces the kinds share: metadata in the file (without the key), comparing values, showing them.
import {z} from 'zod'

import {decimalShift, minorDigits} from '../../../cli/output/format.js'
import {carryProtoKey, ownValue, restoreProtoKey, setOwn} from '../../../client/own-keys.js'
import {KEY_FIELD} from '../keys.js'
import type {Change, Keys} from './kind.js'

export type Metadata = Record<string, string | number | boolean>

// a key "__proto__" is kept through zod's record, which builds by assignment (src/client/own-keys.ts)
export const metadataSchema = z
  .preprocess(
    carryProtoKey,
    z
      .record(z.string().min(1).max(40), z.union([z.string().max(500), z.number(), z.boolean()]))
      .refine((m) => !Object.hasOwn(m, KEY_FIELD), {
        message: `"${KEY_FIELD}" is kept by till (it is the object's key in the file): use another metadata name`,
      })
      .refine((m) => Object.keys(m).length <= 49, {
        message: 'at most 49 metadata entries (the service takes 50, one is the key)',
      }),
  )
  .transform((m) => restoreProtoKey(m) as Metadata)

export const VISIBILITIES = ['draft', 'private', 'public'] as const

/** The object's metadata without its key, entries sorted (so files compare line by line). */
export function fileMetadata(value: unknown): Metadata {
  const out: Metadata = {}
  const entries = Object.entries((value ?? {}) as Metadata).sort(([a], [b]) => a.localeCompare(b))
  for (const [k, v] of entries) if (k !== KEY_FIELD) setOwn(out, k, v)
  return out
}

/** JSON with object keys sorted: equal values give equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => a.localeCompare(b))) : v,
  )
}

export const same = (a: unknown, b: unknown) => canonical(a) === canonical(b)

/**
 * The target's id of another kind's key: each was created before, in dependency order, so a missing one
 * is a failed step of its own kind (apply stops at the first failure before reaching this one).
 */
export const targetId =
  (keys: Keys, kind: string, noun: string) =>
  (key: string): string => {
    const id = keys.idOf(kind, key)
    if (id === undefined) throw new Error(`${noun} "${key}" is not in the environment`)
    return id
  }

/** A value as a plan shows it. */
export const show = (value: unknown): string =>
  value === undefined || value === null ? '(none)' : typeof value === 'string' ? JSON.stringify(value) : canonical(value)

/** One change when `from` and `to` differ. */
export function changed(field: string, from: unknown, to: unknown, note?: string): Change[] {
  return same(from ?? null, to ?? null) ? [] : [{field, from: show(from), to: show(to), ...(note ? {note} : {})}]
}

/** Metadata changes, entry by entry. */
export function metadataChanges(from: Metadata, to: Metadata): Change[] {
  const names = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort()
  return names.flatMap((n) => changed(`metadata.${n}`, ownValue(from, n), ownValue(to, n)))
}

/** 2900, "usd" -> "29.00" (the currency's own number of decimals). */
export function majorText(minor: number, currency: string): string {
  const digits = minorDigits(currency.toUpperCase())
  // a fraction of a minor unit (12.5 -> "0.125"), or what is not a number at all, shown as it is
  if (!Number.isSafeInteger(minor)) return (Number.isFinite(minor) ? decimalShift(String(minor), -digits) : undefined) ?? String(minor)
  const text = String(Math.abs(minor)).padStart(digits + 1, '0')
  const whole = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`
  return `${minor < 0 ? '-' : ''}${whole}`
}

/** 2900, "usd" -> "29.00 USD". */
export const moneyText = (minor: number, currency: string) => `${majorText(minor, currency)} ${currency.toUpperCase()}`

// moved beside the money formatting (a product list shows metered unit prices with it)
export {decimalShift} from '../../../cli/output/format.js'
