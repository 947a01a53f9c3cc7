// `till customers import`: customers from JSON lines, each created, or updated when it exists already (by
// its external id, else by its e-mail), or left as it is when nothing differs. A re-run of the same file
// creates nothing; after a change at the source, it updates exactly what changed. A creation whose answer
// was lost is settled by the client's lookup (src/client/settlement.ts), so none is made twice.
import {createInterface} from 'node:readline'

import type {ApiClient} from '../../client/client.js'
import {ApiError} from '../../client/errors.js'
import {createCustomer, getCustomer, listCustomers, updateCustomer, type CustomerRef} from '../../client/resources/customers.js'
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

/** Reads and checks every line (blank lines skipped): a bad line stops the import before anything is sent. */
export async function readCustomerLines(input: NodeJS.ReadableStream, name: string): Promise<ImportInput[]> {
  const lines = createInterface({input, crlfDelay: Number.POSITIVE_INFINITY})
  const out: ImportInput[] = []
  const seen = new Map<string, number>()
  let n = 0
  for await (const raw of lines) {
    n++
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
    const key = typeof r.external_id === 'string' ? `external id ${r.external_id}` : `e-mail ${r.email.toLowerCase()}`
    const earlier = seen.get(key)
    if (earlier !== undefined) throw usageError(`${name} line ${n}: the same customer (${key}) as line ${earlier}`, 'give each customer once')
    seen.set(key, n)
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
      if (Object.keys(given).some((k) => !same(given[k], held[k]))) body.billing_address = given
    } else if (field === 'tax_id' && typeof record.tax_id === 'string' && Array.isArray(current)) {
      // the service keeps [value, format], the value without spaces, dots, dashes or slashes, upper-cased
      if (normalTaxId(record.tax_id) !== current[0]) body.tax_id = record.tax_id
    } else if (!same(record[field], current)) body[field] = record[field]
  }
  return body
}

/** Creates or updates the customer of one line. */
export async function importCustomer(client: ApiClient, {line, record}: ImportInput): Promise<Imported> {
  const found = await existing(client, record)
  const result = (action: Imported['action'], c: Customer): Imported => ({
    line,
    action,
    id: c.id,
    email: c.email ?? record.email,
    external_id: c.external_id ?? null,
  })
  if (!found) return result('created', await createCustomer(client, record as unknown as CustomerCreate))
  const body = changes(record, found)
  if (Object.keys(body).length === 0) return result('unchanged', found)
  const ref: CustomerRef = {id: found.id}
  return result('updated', await updateCustomer(client, ref as {id: string}, body))
}
