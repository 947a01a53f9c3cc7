// The catalog file: YAML, one section per kind (`benefits:`, `products:`), each a map from stable key to
// entry. Read with line numbers, so that every problem names its line; written with sorted keys, so the
// same catalog gives the same file from any environment.
import {Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, visit} from 'yaml'

import {KEY_RE, KEY_RULE} from './keys.js'
import {KINDS} from './kinds/index.js'
import type {Issue, Path} from './kinds/kind.js'

export const FORMAT_VERSION = 1

/** Entries by section, then by key, as parsed by each kind's schema. */
export type Catalog = Record<string, Record<string, unknown>>

export interface LocatedIssue extends Issue {
  line?: number
}

export interface ReadResult {
  catalog: Catalog
  issues: LocatedIssue[]
}

const HEADER = [
  ' The catalog of an organization, as code: `till catalog plan FILE` shows what applying it would change,',
  ' `till catalog apply FILE` makes an environment match it. Each object is named by its key (the map key),',
  ' which till records in the object\'s metadata as "key"; amounts are in major units with their currency.',
].join('\n')

const TOO_DEEP = 'the file nests too deep; a catalog file is a few levels of maps and lists'
const tooDeep = (message: string) => /call stack|too deep|nest/i.test(message)

export const pathText = (path: Path) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')

/** A key given twice in one map, as the parser would name it: "Map keys must be unique", at the second one's line. */
function repeatedKeys(doc: Document.Parsed, lineOf: (offset: number | undefined) => number | undefined): LocatedIssue[] {
  const issues: LocatedIssue[] = []
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>()
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key
        if (seen.has(key)) issues.push({path: [], message: 'Map keys must be unique', line: lineOf(isNode(pair.key) ? pair.key.range?.[0] : undefined)})
        seen.add(key)
      }
    },
  })
  return issues
}

/** Reads and checks a catalog file: syntax, sections, each entry's schema, money, and references between keys. */
export function readCatalog(text: string): ReadResult {
  const lines = new LineCounter()
  // the parser's own check of unique keys compares each key with every key before it: 60,000 products took
  // minutes; the keys are checked here instead, one Set per map
  const doc = parseDocument(text, {lineCounter: lines, uniqueKeys: false})
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line)
  const syntax: LocatedIssue[] = doc.errors.map((e) => ({path: [], message: tooDeep(e.message) ? TOO_DEEP : e.message.split('\n')[0]!, line: lineOf(e.pos[0])}))
  if (syntax.length === 0) syntax.push(...repeatedKeys(doc, lineOf))
  if (syntax.length > 0) return {catalog: {}, issues: syntax}
  /** The line of the deepest part of `path` that exists: a map entry's key, a list's item. */
  const locate = (path: Path): number | undefined => {
    for (let n = path.length; n > 0; n--) {
      const parent = n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true)
      const last = path[n - 1]
      if (isMap(parent)) {
        const pair = parent.items.find(
          (p) => (isScalar(p.key) ? p.key.value : p.key) === last || String(isScalar(p.key) ? p.key.value : p.key) === String(last),
        )
        if (pair && isNode(pair.key) && pair.key.range) return lineOf(pair.key.range[0])
      } else if (isSeq(parent) && typeof last === 'number') {
        const item = parent.items[last]
        if (isNode(item) && item.range) return lineOf(item.range[0])
      }
    }
    return lineOf(isNode(doc.contents) && doc.contents.range ? doc.contents.range[0] : 0)
  }
  const issues: LocatedIssue[] = []
  const add = (path: Path, message: string) => issues.push({path, message, line: locate(path)})
  let root: unknown
  try {
    // Aliases that expand without end (a "billion laughs" file) or nesting past the stack stop here.
    root = doc.toJS({maxAliasCount: 1000})
  } catch (error) {
    const message = (error as Error).message ?? ''
    add(
      [],
      tooDeep(message)
        ? TOO_DEEP
        : /alias/i.test(message)
          ? "the file's aliases (*name) expand too far; write the values out"
          : `the file cannot be read (${message})`,
    )
    return {catalog: {}, issues}
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    add([], 'a catalog file is a map with "version" and sections such as "benefits:" and "products:"')
    return {catalog: {}, issues}
  }
  const top = root as Record<string, unknown>
  if (top.version !== FORMAT_VERSION) add(['version'], `"version: ${FORMAT_VERSION}" is required (the format this till reads)`)
  const known = new Set(['version', ...KINDS.map((k) => k.section)])
  for (const name of Object.keys(top)) {
    if (!known.has(name)) add([name], `unknown section "${name}": this till handles ${KINDS.map((k) => k.section).join(', ')}`)
  }
  const catalog: Catalog = {}
  for (const kind of KINDS) {
    const section = top[kind.section] ?? {}
    catalog[kind.section] = {}
    if (section === null || typeof section !== 'object' || Array.isArray(section) || (doc.get(kind.section) !== undefined && !isMap(doc.get(kind.section)))) {
      add([kind.section], `"${kind.section}" is a map from key to ${kind.noun}`)
      continue
    }
    for (const [key, value] of Object.entries(section)) {
      const at: Path = [kind.section, key]
      if (!KEY_RE.test(key)) add(at, `"${key}": ${KEY_RULE}`)
      const parsed = kind.schema.safeParse(value ?? {})
      if (!parsed.success) {
        for (const issue of parsed.error.issues) add([...at, ...(issue.path as Path)], issue.message)
        continue
      }
      for (const issue of kind.check?.(parsed.data) ?? []) add([...at, ...issue.path], issue.message)
      catalog[kind.section]![key] = parsed.data
    }
  }
  for (const kind of KINDS) {
    for (const [key, entry] of Object.entries(catalog[kind.section]!)) {
      for (const ref of kind.references?.(entry) ?? []) {
        if (!(ref.key in (catalog[ref.kind] ?? {}))) add([kind.section, key, ...ref.path], `no ${ref.kind} entry has the key "${ref.key}"`)
      }
    }
  }
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
  return {catalog, issues}
}

/** One line per issue: `FILE:LINE: path: message`. */
export const issueLines = (file: string, issues: LocatedIssue[]) =>
  issues.map((i) => `${file}${i.line === undefined ? '' : `:${i.line}`}: ${i.path.length > 0 ? `${pathText(i.path)}: ` : ''}${i.message}`)

/** The catalog as YAML: sections in dependency order, keys sorted. */
export function writeCatalog(catalog: Catalog): string {
  const out: Record<string, unknown> = {version: FORMAT_VERSION}
  for (const kind of KINDS) {
    const section = catalog[kind.section] ?? {}
    out[kind.section] = Object.fromEntries(
      Object.keys(section)
        .sort()
        .map((k) => [k, section[k]]),
    )
  }
  const doc = new Document(out)
  doc.commentBefore = HEADER
  return doc.toString({lineWidth: 0})
}
