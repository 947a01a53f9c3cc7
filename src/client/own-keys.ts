// A key "__proto__" in data from elsewhere (a JSON line, a catalog file, a source's answer, a service's
// metadata) is a key like any other. JSON.parse keeps it as the object's own key, but an object built by
// assignment (`out[key] = value`, and zod's z.record, which builds its record so) sets the object's
// prototype instead, and the key is lost; a lookup of a key an object lacks (`to[name]`) finds Object's own
// `__proto__` or `constructor`. These helpers build and read such objects by their own keys only. Pure.

/** Sets `key` as `target`'s own entry, whatever the key (`__proto__` included). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true})
}

/** The value of `target`'s own entry `key`, or undefined (never an inherited one). */
export function ownValue<T>(target: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined
}

/** The name a `__proto__` key travels under through a builder that assigns (JSON keys do not take it in practice). */
const CARRIED_KEY = '\u0000__proto__'

/** `value` with its own keys in their order, `from` renamed `to`: itself when it has no such key. */
function rename(value: unknown, from: string, to: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, from)) return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) setOwn(out, key === from ? to : key, v)
  return out
}

/** Before a builder that assigns (zod's z.record): an own `__proto__` key renamed so that it is kept. */
export const carryProtoKey = (value: unknown): unknown => rename(value, '__proto__', CARRIED_KEY)

/** After it: the key put back as the object's own `__proto__`, in its place. */
export const restoreProtoKey = (value: unknown): unknown => rename(value, CARRIED_KEY, '__proto__')
