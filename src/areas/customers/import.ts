// `till customers import`: customers from JSON lines, each created, or updated when it exists already (by
// its external id, else by its e-mail), or left as it is when nothing differs. A re-run of the same file
// creates nothing; after a change at the source, it updates exactly what changed. A creation whose answer
// was lost is settled by the client's lookup (src/client/settlement.ts), so none is made twice.
import type {ApiClient} from '../../client/client.js'
import {ApiError} from '../../client/errors.js'
import {createCustomer, getCustomer, listCustomers, updateCustomer, type CustomerRef} from '../../client/resources/customers.js'
import {ownValue} from '../../client/own-keys.js'
import {usageError} from '../../client/till-error.js'
import type {Customer, CustomerCreate} from '../../client/wire/index.js'

/** The fields of a line that till sends; any other key of a line is refused (a typo must not be dropped). */
const FIELDS = ['email', 'name', 'external_id', 'billing_address', 'tax_id', 'metadata', 'locale'] as const
type Field = (typeof FIELDS)[number]
export type CustomerLine = Partial<Record<Field, unknown>> & {email: string}

export interface ImportInput {
  /** 1-based line number in the input. */
  line: number
  record: CustomerLine
}

export interface Imported {
  line: number
  action: 'created' | 'updated' | 'unchanged'
  id: string
  email: string
  external_id: string | null
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The fields of an address the service keeps (the document's AddressInput); it ignores any other. */
const ADDRESS_FIELDS = ['line1', 'line2', 'postal_code', 'city', 'state', 'country']

/** The lines of `input` as bytes (without their CR LF or LF), read as they arrive. */
async function* byteLines(input: NodeJS.ReadableStream): AsyncGenerator<Buffer> {
  let pending: Buffer[] = []
  for await (const chunk of input) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    let start = 0
    for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
      pending.push(data.subarray(start, end))
      const line = Buffer.concat(pending)
      pending = []
      yield line.at(-1) === 13 ? line.subarray(0, -1) : line
      start = end + 1
    }
    if (start < data.length) pending.push(data.subarray(start))
  }
  if (pending.length > 0) yield Buffer.concat(pending)
}

const UTF8 = new TextDecoder('utf-8', {fatal: true})

/**
 * A line's text, or why it is not UTF-8: the first byte that is not, by its place (a Latin-1 "é" is one
 * byte, 0xE9, which UTF-8 never has alone). A byte order mark starting the input is dropped.
 */
function lineText(bytes: Buffer, first: boolean): {text: string} | {bad: string} {
  const body = first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes
  try {
    return {text: UTF8.decode(body)}
  } catch {
    // decoded leniently, each U+FFFD that the bytes do not spell out (EF BF BD) stands where a byte was bad
    const lenient = body.toString('utf8')
    for (let i = lenient.indexOf('\ufffd'); i !== -1; i = lenient.indexOf('\ufffd', i + 1)) {
      const at = Buffer.byteLength(lenient.slice(0, i))
      if (!(body[at] === 0xef && body[at + 1] === 0xbf && body[at + 2] === 0xbd)) {
        return {bad: `byte ${at + 1} is 0x${body[at]!.toString(16).toUpperCase().padStart(2, '0')}`}
      }
    }
    return {bad: 'it has a byte sequence UTF-8 does not allow'}
  }
}

/** What a value is, for a message: "a number", "an array". */
const kindOf = (value: unknown): string =>
  Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value === 'boolean' ? 'boolean' : typeof value}`

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What is wrong with the line's fields against the service's CustomerCreate (types and sizes), if anything. */
function fieldProblem(r: Partial<Record<Field, unknown>>): string | undefined {
  const text = (field: 'name' | 'tax_id' | 'locale', max?: number) => {
    const value = r[field]
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'string') return `"${field}" must be a string or null, not ${kindOf(value)}`
    return max !== undefined && value.length > max ? `"${field}" is longer than ${max} characters` : undefined
  }
  const problem = text('name', 256) ?? text('tax_id') ?? text('locale')
  if (problem) return problem
  const address = r.billing_address
  if (address !== undefined && address !== null) {
    if (!isPlainObject(address)) return `"billing_address" must be an object or null, not ${kindOf(address)}`
    // a field the service ignores would differ from the customer's address on every run (a typo included)
    const unknown = Object.keys(address).find((k) => !ADDRESS_FIELDS.includes(k))
    if (unknown !== undefined) return `"billing_address" has no field "${unknown}": its fields are ${ADDRESS_FIELDS.join(', ')}`
    if (typeof address.country !== 'string' || !/^[A-Z]{2}$/.test(address.country)) return '"billing_address" needs "country", a two-letter code such as "DE"'
    const odd = Object.entries(address).find(([, v]) => v !== null && typeof v !== 'string')
    if (odd) return `"billing_address"."${odd[0]}" must be a string or null, not ${kindOf(odd[1])}`
  }
  const metadata = r.metadata
  if (metadata === undefined) return undefined
  if (!isPlainObject(metadata)) return `"metadata" must be an object of keys and values, not ${kindOf(metadata)}`
  const entries = Object.entries(metadata)
  if (entries.length > 50) return `"metadata" has ${entries.length} keys; the service takes at most 50`
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > 40) return `"metadata" key "${key}" must have 1 to 40 characters`
    const ok =
      typeof value === 'string' ? value.length >= 1 && value.length <= 500 : typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    if (!ok)
      return `"metadata"."${key}" must be a string of 1 to 500 characters, a number or a boolean, not ${typeof value === 'string' ? `${value.length} characters` : kindOf(value)}`
  }
  return undefined
}

/**
 * Reads and checks every line (blank lines skipped) against what the service takes: a bad line stops the
 * import before anything is sent, naming its line: not UTF-8, not JSON, an unknown field, a value of the
 * wrong type or size, or a customer (external id or e-mail) given twice.
 */
export async function readCustomerLines(input: NodeJS.ReadableStream, name: string): Promise<ImportInput[]> {
  const out: ImportInput[] = []
  const seen = new Map<string, number>()
  let n = 0
  for await (const bytes of byteLines(input)) {
    n++
    const decoded = lineText(bytes, n === 1)
    if ('bad' in decoded)
      throw usageError(`${name} line ${n} is not UTF-8 text: ${decoded.bad}`, 'save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8 FILE)')
    const raw = decoded.text
    if (raw.trim() === '') continue
    let record: unknown
    try {
      record = JSON.parse(raw)
    } catch {
      throw usageError(`${name} line ${n} is not valid JSON`, 'give one JSON object per line, e.g. {"email": "ada@example.com", "external_id": "user_1"}')
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw usageError(`${name} line ${n} is not a JSON object`)
    const unknown = Object.keys(record).filter((k) => !(FIELDS as readonly string[]).includes(k))
    if (unknown.length > 0)
      throw usageError(`${name} line ${n}: unknown field ${unknown.map((k) => `"${k}"`).join(', ')}`, `the fields are: ${FIELDS.join(', ')}`)
    const r = record as Partial<Record<Field, unknown>>
    if (typeof r.email !== 'string' || !EMAIL.test(r.email.trim())) throw usageError(`${name} line ${n}: "email" must be an e-mail address`)
    if (r.external_id !== undefined && r.external_id !== null && (typeof r.external_id !== 'string' || r.external_id === ''))
      throw usageError(`${name} line ${n}: "external_id" must be a non-empty string`)
    const problem = fieldProblem(r)
    if (problem) throw usageError(`${name} line ${n}: ${problem}`)
    // one customer per line: an external id once, and an e-mail once (the service keeps one customer per e-mail)
    const email = `e-mail ${r.email.trim().toLowerCase()}`
    for (const key of typeof r.external_id === 'string' ? [`external id ${r.external_id}`, email] : [email]) {
      const earlier = seen.get(key)
      if (earlier !== undefined)
        throw usageError(`${name} line ${n}: the same customer (${key}) as line ${earlier}`, 'give each customer once: an e-mail belongs to one customer')
      seen.set(key, n)
    }
    out.push({line: n, record: r as CustomerLine})
  }
  return out
}

/** The customer the line names, if it exists: by external id, else by e-mail. */
async function existing(client: ApiClient, record: CustomerLine): Promise<Customer | undefined> {
  if (typeof record.external_id === 'string') {
    try {
      return await getCustomer(client, {externalId: record.external_id})
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined
      throw error
    }
  }
  for await (const c of listCustomers(client, {email: record.email}, {limit: 10, all: false}))
    if (c.email?.toLowerCase() === record.email.toLowerCase()) return c
  return undefined
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

const normalTaxId = (value: string) => value.replaceAll(/[\s.\-/]/g, '').toUpperCase()

/** What differs between the line and the customer, as an update body (external id apart: it cannot change). */
function changes(record: CustomerLine, customer: Customer): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const field of FIELDS) {
    if (field === 'external_id' || record[field] === undefined) continue
    const current = (customer as unknown as Record<string, unknown>)[field]
    if (field === 'metadata') {
      const wanted = {...(current as Record<string, unknown>), ...(record.metadata as Record<string, unknown>)}
      if (!same(wanted, current)) body.metadata = wanted
    } else if (field === 'billing_address' && record.billing_address && current) {
      const held = current as Record<string, unknown>
      const given = record.billing_address as Record<string, unknown>
      if (Object.keys(given).some((k) => !same(given[k], ownValue(held, k)))) body.billing_address = given
    } else if (field === 'tax_id' && typeof record.tax_id === 'string' && Array.isArray(current)) {
      // the service keeps [value, format], the value without spaces, dots, dashes or slashes, upper-cased
      if (normalTaxId(record.tax_id) !== current[0]) body.tax_id = record.tax_id
    } else if (!same(record[field], current)) body[field] = record[field]
  }
  return body
}

/** The service's refusal of a creation because the customer exists (its e-mail or external id is taken). */
const alreadyExists = (error: unknown): boolean =>
  error instanceof ApiError &&
  error.status === 422 &&
  Array.isArray((error.body as {detail?: unknown})?.detail) &&
  (error.body as {detail: Array<{msg?: unknown}>}).detail.some((d) => typeof d.msg === 'string' && /already exists/i.test(d.msg))

/**
 * Creates or updates the customer of one line. A creation refused because the customer exists (another
 * import of the same file made it meanwhile) is the customer found: updated with what differs, or unchanged.
 */
export async function importCustomer(client: ApiClient, {line, record}: ImportInput): Promise<Imported> {
  let found = await existing(client, record)
  const result = (action: Imported['action'], c: Customer): Imported => ({
    line,
    action,
    id: c.id,
    email: c.email ?? record.email,
    external_id: c.external_id ?? null,
  })
  if (!found) {
    try {
      return result('created', await createCustomer(client, record as unknown as CustomerCreate))
    } catch (error) {
      if (!alreadyExists(error)) throw error
      found = await existing(client, record)
      if (!found) throw error
    }
  }
  const body = changes(record, found)
  if (Object.keys(body).length === 0) return result('unchanged', found)
  const ref: CustomerRef = {id: found.id}
  return result('updated', await updateCustomer(client, ref as {id: string}, body))
}
