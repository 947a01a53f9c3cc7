// The properties of a valid request body that its schema does not declare. The service's models
// (pydantic) ignore a field they do not have, so a request that carries one is answered as if it did not:
// the client is told it succeeded while the field changed nothing. Not a refusal, a violation.
//
// The walk follows the value through its schema: `$ref`s resolved, a tagged union by the member its tag
// names, an untagged union by the member pydantic's smart mode would take (of those the value validates
// against, the one that declares most of what it carries), `allOf` as the union of its members'
// properties. A schema with `additionalProperties` (a map such as `metadata`) declares every key.

type Json = Record<string, unknown>

export interface Undeclared {
  /** Where, e.g. `body.prices[0].amount_type_x`. */
  at: string
  /** The model that does not declare it (its component's name, or its title). */
  model: string
  /** The schema that does not declare it, e.g. `#/components/schemas/CustomerIndividualCreate`. */
  schemaPath: string
}

export interface Walker {
  /** The schema a `$ref` names. */
  resolve(ref: string): Json
  /** Whether a value validates against a schema (a union member). */
  validates(schema: Json, value: unknown): boolean
}

/** The properties of `value` (valid against `schema`) that the schema does not declare, at any depth. */
export function undeclared(schema: Json, value: unknown, walker: Walker, at = 'body'): Undeclared[] {
  const out: Undeclared[] = []
  walk(schema, value, at, {model: 'the body', schemaPath: '#'}, walker, out, 0)
  return out
}

interface Named {
  model: string
  schemaPath: string
}

function walk(schema: Json, value: unknown, at: string, named: Named, walker: Walker, out: Undeclared[], depth: number): void {
  if (depth > 64 || value === null || typeof value !== 'object') return
  let current = schema
  let name = typeof schema.title === 'string' ? {model: schema.title, schemaPath: named.schemaPath} : named
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref = current.$ref as string
    name = {model: ref.split('/').at(-1)!, schemaPath: ref}
    current = walker.resolve(ref)
  }
  const next = (s: Json, v: unknown, where: string) => walk(s, v, where, name, walker, out, depth + 1)

  const members = (current.anyOf ?? current.oneOf) as Json[] | undefined
  if (members) {
    const tag = current.discriminator as {propertyName: string; mapping?: Record<string, string>} | undefined
    const tagValue = tag && !Array.isArray(value) ? (value as Json)[tag.propertyName] : undefined
    if (tag?.mapping && typeof tagValue === 'string' && tag.mapping[tagValue]) {
      next({$ref: tag.mapping[tagValue]}, value, at)
      return
    }
    let best: Undeclared[] | undefined
    for (const member of members) {
      if (!walker.validates(member, value)) continue
      const found: Undeclared[] = []
      walk(member, value, at, name, walker, found, depth + 1)
      if (!best || found.length < best.length) best = found
      if (best.length === 0) break
    }
    out.push(...(best ?? []))
    return
  }
  if (Array.isArray(current.allOf)) {
    const parts = (current.allOf as Json[]).map((m) => derefAll(m, walker))
    const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Json
    const open = parts.find((p) => p.additionalProperties !== undefined && p.additionalProperties !== false)
    next({properties, ...(open ? {additionalProperties: open.additionalProperties} : {})}, value, at)
    return
  }

  if (Array.isArray(value)) {
    const prefix = (current.prefixItems as Json[] | undefined) ?? []
    value.forEach((item, i) => {
      const itemSchema = prefix[i] ?? (current.items as Json | undefined)
      if (itemSchema && typeof itemSchema === 'object') next(itemSchema, item, `${at}[${i}]`)
    })
    return
  }

  const properties = current.properties as Record<string, Json> | undefined
  const extra = current.additionalProperties
  for (const [key, v] of Object.entries(value as Json)) {
    if (properties && Object.hasOwn(properties, key)) next(properties[key]!, v, `${at}.${key}`)
    else if (extra !== undefined && extra !== false) {
      if (typeof extra === 'object' && extra !== null) next(extra as Json, v, `${at}.${key}`)
    } else if (properties) out.push({at: `${at}.${key}`, model: name.model, schemaPath: name.schemaPath})
  }
}

function derefAll(schema: Json, walker: Walker): Json {
  let current = schema
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) current = walker.resolve(current.$ref as string)
  return current
}
