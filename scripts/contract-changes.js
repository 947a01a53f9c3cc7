// What changed between two derived documents (the kept one and the one a source gives now), for the summary
// `npm run contract` prints beside rewriting the file: operations, parameters, schemas (and their
// properties) and enum values, each added, removed or changed.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b)

/** Every operation of a document, by `METHOD path`. */
function operations(document) {
  const out = new Map()
  for (const [path, item] of Object.entries(document?.paths ?? {}))
    for (const method of METHODS) if (item?.[method]) out.set(`${method.toUpperCase()} ${path}`, {...item[method], shared: item.parameters})
  return out
}

/** An operation's parameters, path-level ones included, by `in name`. */
function parameters(operation) {
  const out = new Map()
  for (const p of [...(operation.shared ?? []), ...(operation.parameters ?? [])]) if (p?.name) out.set(`${p.in} ${p.name}`, p)
  return out
}

/** The keys of `after` not in `before`, those of `before` not in `after`, and those in both that differ. */
function compare(before, after, differ = (a, b) => !same(a, b)) {
  const added = [...after.keys()].filter((k) => !before.has(k))
  const removed = [...before.keys()].filter((k) => !after.has(k))
  const changed = [...after.keys()].filter((k) => before.has(k) && differ(before.get(k), after.get(k)))
  return {added, removed, changed}
}

const entries = (object) => new Map(Object.entries(object ?? {}))

/** What differs in an operation besides its parameters: its id, body, answers (by status) or scopes. */
function operationChange(a, b) {
  const parts = []
  if (a.operationId !== b.operationId) parts.push(`id ${a.operationId} -> ${b.operationId}`)
  if (!same(a.requestBody, b.requestBody)) parts.push('request body')
  const statuses = compare(entries(a.responses), entries(b.responses))
  for (const [word, list] of [
    ['added', statuses.added],
    ['removed', statuses.removed],
    ['changed', statuses.changed],
  ])
    if (list.length > 0) parts.push(`answers ${list.join(', ')} ${word}`)
  if (!same(a.security, b.security)) parts.push('scopes')
  return parts.join('; ')
}

/** What differs in a schema: its properties added, removed or changed, its required ones, or else its shape. */
function schemaChange(a, b) {
  const parts = []
  const props = compare(entries(a.properties), entries(b.properties))
  for (const [word, list] of [
    ['added', props.added],
    ['removed', props.removed],
    ['changed', props.changed],
  ])
    if (list.length > 0) parts.push(`properties ${list.join(', ')} ${word}`)
  if (!same(a.required ?? [], b.required ?? [])) parts.push('required')
  if (!same(a.enum, b.enum)) parts.push('enum values')
  const {properties: _a, required: _ra, enum: _ea, ...restA} = a
  const {properties: _b, required: _rb, enum: _eb, ...restB} = b
  if (!same(restA, restB)) parts.push('shape')
  return parts.join('; ')
}

/** Every enum of a schema (its own and nested ones'), by where it is inside the schema. */
function enums(schema, at, out) {
  if (Array.isArray(schema)) schema.forEach((s, i) => enums(s, `${at}/${i}`, out))
  else if (schema && typeof schema === 'object') {
    if (Array.isArray(schema.enum)) out.set(at, schema.enum)
    for (const [key, value] of Object.entries(schema)) if (key !== 'enum') enums(value, at ? `${at}/${key}` : key, out)
  }
  return out
}

/** Where an enum is, in words: the schema, and the property when it is one's. */
const enumPlace = (path) => path.replace(/\/properties\/([^/]+)/g, '.$1').replace(/\/(anyOf|oneOf|allOf|items)(\/\d+)?/g, '')

/**
 * The changes from `before` to `after` (derived documents; `before` may be undefined: a new file), as
 * `{kind, change, name, detail?}`: kind is operation, parameter, schema or enum value; change is added,
 * removed or changed.
 */
export function changes(before, after) {
  const out = []
  const push = (kind, change, name, detail) => out.push({kind, change, name, ...(detail ? {detail} : {})})
  const opsBefore = operations(before)
  const opsAfter = operations(after)
  const ops = compare(opsBefore, opsAfter, (a, b) => operationChange(a, b) !== '')
  for (const key of ops.added) push('operation', 'added', `${key} (${opsAfter.get(key).operationId})`)
  for (const key of ops.removed) push('operation', 'removed', `${key} (${opsBefore.get(key).operationId})`)
  for (const key of ops.changed) push('operation', 'changed', key, operationChange(opsBefore.get(key), opsAfter.get(key)))
  for (const key of opsAfter.keys()) {
    if (!opsBefore.has(key)) continue
    const a = parameters(opsBefore.get(key))
    const b = parameters(opsAfter.get(key))
    const params = compare(a, b)
    for (const [change, list] of [
      ['added', params.added],
      ['removed', params.removed],
      ['changed', params.changed],
    ])
      for (const p of list) push('parameter', change, `${key} ${p}`)
  }
  const schemasBefore = entries(before?.components?.schemas)
  const schemasAfter = entries(after?.components?.schemas)
  const schemas = compare(schemasBefore, schemasAfter)
  for (const name of schemas.added) push('schema', 'added', name)
  for (const name of schemas.removed) push('schema', 'removed', name)
  for (const name of schemas.changed) push('schema', 'changed', name, schemaChange(schemasBefore.get(name), schemasAfter.get(name)))
  for (const name of schemas.changed) {
    const a = enums(schemasBefore.get(name), '', new Map())
    const b = enums(schemasAfter.get(name), '', new Map())
    for (const [at, values] of b) {
      const old = a.get(at) ?? []
      const place = `${name}${enumPlace(at ? `/${at}` : '')}`
      for (const v of values) if (!old.includes(v)) push('enum value', 'added', `${place}: ${v}`)
      for (const v of old) if (!values.includes(v)) push('enum value', 'removed', `${place}: ${v}`)
    }
  }
  return out
}

const SIGN = {added: '+', removed: '-', changed: '~'}
const KINDS = ['operation', 'parameter', 'schema', 'enum value']

/** The summary's lines: a count per kind, then one line per change. */
export function summary(list) {
  if (list.length === 0) return ['no change from the kept document']
  const lines = []
  for (const kind of KINDS) {
    const of = list.filter((c) => c.kind === kind)
    if (of.length === 0) continue
    const count = (change) => of.filter((c) => c.change === change).length
    lines.push(`${kind}s: ${count('added')} added, ${count('removed')} removed, ${count('changed')} changed`)
    for (const c of of) lines.push(`  ${SIGN[c.change]} ${c.name}${c.detail ? `: ${c.detail}` : ''}`)
  }
  return lines
}
