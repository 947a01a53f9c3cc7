// The catalog file: YAML, one section per kind (`benefits:`, `products:`), each a map from stable key to
// entry. Read with line numbers, so that every problem names its line; written with sorted keys, so the
// same catalog gives the same file from any environment.
import {type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, visit} from 'yaml'

import {shared, Words} from './alike.js'
import {cutCatalog, type Chunk, type Top} from './entries.js'
import {KEY_RE, KEY_RULE} from './keys.js'
import {KINDS} from './kinds/index.js'
import type {Issue, Kind, Path} from './kinds/kind.js'

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

export const HEADER = [
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

/** The line of the deepest part of `path` that exists in `doc`: a map entry's key, a list's item. */
function locateIn(doc: Document.Parsed, path: Path, lineOf: (offset: number | undefined) => number | undefined): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const parent = n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true)
    const last = path[n - 1]
    if (isMap(parent)) {
      const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === last || String(isScalar(p.key) ? p.key.value : p.key) === String(last))
      if (pair && isNode(pair.key) && pair.key.range) return lineOf(pair.key.range[0])
    } else if (isSeq(parent) && typeof last === 'number') {
      const item = parent.items[last]
      if (isNode(item) && item.range) return lineOf(item.range[0])
    }
  }
  return lineOf(isNode(doc.contents) && doc.contents.range ? doc.contents.range[0] : 0)
}

/** A YAML text parsed with its lines: the document, its syntax issues (lines from `firstLine`), and where a path is. */
export function parseYaml(text: string, firstLine = 0) {
  const lines = new LineCounter()
  // the parser's own check of unique keys compares each key with every key before it: 60,000 products took
  // minutes; the keys are checked here instead, one Set per map
  const doc = parseDocument(text, {lineCounter: lines, uniqueKeys: false})
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : lines.linePos(offset).line + firstLine)
  // the parser's words name a line of the text it was given: of the file's, for an entry read alone
  const words = (message: string) => message.split('\n')[0]!.replace(/at line (\d+)/, (_, n: string) => `at line ${Number(n) + firstLine}`)
  const syntax: LocatedIssue[] = doc.errors.map((e) => ({path: [], message: tooDeep(e.message) ? TOO_DEEP : words(e.message), line: lineOf(e.pos[0])}))
  if (syntax.length === 0) syntax.push(...repeatedKeys(doc, lineOf))
  return {doc, syntax, locate: (path: Path) => locateIn(doc, path, lineOf)}
}

/** A document's value, or the issue that stops it (aliases that expand without end, nesting past the stack). */
export function documentValue(doc: Document.Parsed): {value: unknown} | {problem: string} {
  try {
    return {value: doc.toJS({maxAliasCount: 1000})}
  } catch (error) {
    const message = (error as Error).message ?? ''
    return {
      problem: tooDeep(message)
        ? TOO_DEEP
        : /alias/i.test(message)
          ? "the file's aliases (*name) expand too far; write the values out"
          : `the file cannot be read (${message})`,
    }
  }
}

const NOT_A_MAP = 'a catalog file is a map with "version" and sections such as "benefits:" and "products:"'
const notSection = (kind: Kind) => `"${kind.section}" is a map from key to ${kind.noun}`
const knownSections = () => new Set(['version', ...KINDS.map((k) => k.section)])

/**
 * Reads and checks a catalog file: syntax, sections, each entry's schema, money, and references between keys.
 * A file in the plain layout is read an entry at a time (entries.ts); `whole` reads any file as one document.
 */
export function readCatalog(text: string, options: {whole?: boolean} = {}): ReadResult {
  const reading = options.whole ? undefined : readingCatalog(text)
  if (!reading) return readWhole(text)
  for (;;) {
    const step = reading.next()
    if (step.done) return step.value
  }
}

/**
 * A file in the plain layout read an entry per step (the caller may let other work run between steps: a
 * signal, say), its result the last; undefined for a file to read whole.
 */
export function readingCatalog(text: string): Generator<void, ReadResult> | undefined {
  const tops = cutCatalog(text)
  return tops && tops.length > 0 ? readEntries(tops) : undefined
}

/** Checks one entry of `kind`: what its schema made of it, or undefined when it has issues (`add` takes them). */
export function checkEntry(kind: Kind, key: string, value: unknown, add: (path: Path, message: string) => void): unknown {
  const at: Path = [kind.section, key]
  if (!KEY_RE.test(key)) add(at, `"${key}": ${KEY_RULE}`)
  const parsed = kind.schema.safeParse(value ?? {})
  if (!parsed.success) {
    for (const issue of parsed.error.issues) add([...at, ...(issue.path as Path)], issue.message)
    return undefined
  }
  for (const issue of kind.check?.(parsed.data) ?? []) add([...at, ...issue.path], issue.message)
  return parsed.data
}

/** checkEntry, keeping the entry in `catalog` when its schema reads it (`words`: the read's, see compact). */
function keepEntry(kind: Kind, key: string, value: unknown, catalog: Catalog, add: (path: Path, message: string) => void, words: Words): void {
  const data = checkEntry(kind, key, value, add)
  // through JSON: a string the parser made can be a slice of the entry's whole text, which it would keep
  if (data !== undefined) catalog[kind.section]![key] = compact(JSON.parse(JSON.stringify(data)), words)
}

/**
 * An entry as a catalog keeps it: a short word (up to 24 characters: "usd", "public", a benefit's key) and
 * an empty list or map held once (alike.ts), each entry's own values as they are. The entries of a file of
 * 55,000 products took about 800 bytes each, most of it such repeats.
 */
function compact(value: unknown, words: Words): unknown {
  if (typeof value === 'string') return value.length > 24 ? value : words.word(value)
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const k of Object.keys(record)) record[k] = compact(record[k], words)
  }
  return shared(value)
}

/** The references between keys that name no entry; then the issues in line order. */
function finish(catalog: Catalog, issues: LocatedIssue[], add: (path: Path, message: string) => void): ReadResult {
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

/** The whole file as one document. */
function readWhole(text: string): ReadResult {
  const words = new Words()
  const {doc, syntax, locate} = parseYaml(text)
  if (syntax.length > 0) return {catalog: {}, issues: syntax}
  const issues: LocatedIssue[] = []
  const add = (path: Path, message: string) => issues.push({path, message, line: locate(path)})
  const read = documentValue(doc)
  if ('problem' in read) {
    add([], read.problem)
    return {catalog: {}, issues}
  }
  const root = read.value
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    add([], NOT_A_MAP)
    return {catalog: {}, issues}
  }
  const top = root as Record<string, unknown>
  if (top.version !== FORMAT_VERSION) add(['version'], `"version: ${FORMAT_VERSION}" is required (the format this till reads)`)
  const known = knownSections()
  for (const name of Object.keys(top)) {
    if (!known.has(name)) add([name], `unknown section "${name}": this till handles ${KINDS.map((k) => k.section).join(', ')}`)
  }
  const catalog: Catalog = {}
  for (const kind of KINDS) {
    const section = top[kind.section] ?? {}
    catalog[kind.section] = {}
    if (section === null || typeof section !== 'object' || Array.isArray(section) || (doc.get(kind.section) !== undefined && !isMap(doc.get(kind.section)))) {
      add([kind.section], notSection(kind))
      continue
    }
    for (const [key, value] of Object.entries(section)) keepEntry(kind, key, value, catalog, add, words)
  }
  return finish(catalog, issues, add)
}

/**
 * The file an entry at a time: each parsed, checked and dropped, its text kept to find a line again. The
 * issues are the whole read's: a syntax issue anywhere stands alone, as the whole parse reports only those.
 */
function* readEntries(tops: Top[]): Generator<void, ReadResult> {
  const words = new Words()
  const syntax: LocatedIssue[] = []
  const issues: LocatedIssue[] = []
  const catalog: Catalog = Object.fromEntries(KINDS.map((k) => [k.section, {}]))
  /** Where each entry is, to find the line of a path in it: its chunk, by section then key. */
  const where = new Map<string, Map<string, Chunk>>()
  const lineIn = (chunk: Chunk, path: Path) => parseYaml(chunk.text, chunk.line).locate(path)
  const locate = (path: Path): number | undefined => {
    const top = tops.find((t) => t.key === path[0])
    if (!top) return tops[0]?.line === undefined ? undefined : tops[0].line + 1
    const entry = path.length > 1 ? where.get(top.key)?.get(String(path[1])) : undefined
    return entry ? lineIn(entry, path.slice(1)) : top.line + 1
  }
  const add = (path: Path, message: string) => issues.push({path, message, line: locate(path)})
  const topKeys = new Set<string>()
  const values: Record<string, unknown> = {}
  const known = knownSections()
  for (const top of tops) {
    if (topKeys.has(top.key)) syntax.push({path: [], message: 'Map keys must be unique', line: top.line + 1})
    topKeys.add(top.key)
    if (!known.has(top.key)) add([top.key], `unknown section "${top.key}": this till handles ${KINDS.map((k) => k.section).join(', ')}`)
    const kind = KINDS.find((k) => k.section === top.key)
    if (!top.entries || !kind) {
      // a value on the key's line, or an unknown section's (its entries are not read)
      const line = parseYaml(top.entries ? `${top.key}: {}` : top.text, top.line)
      syntax.push(...line.syntax)
      const read = line.syntax.length === 0 ? documentValue(line.doc) : undefined
      if (read && 'value' in read) values[top.key] = (read.value as Record<string, unknown> | null)?.[top.key]
      continue
    }
    values[top.key] = {}
    const seen = new Map<string, Chunk>()
    where.set(top.key, seen)
    for (const chunk of top.entries) {
      yield
      const entry = parseYaml(chunk.text, chunk.line)
      if (entry.syntax.length > 0) {
        syntax.push(...entry.syntax)
        continue
      }
      const read = documentValue(entry.doc)
      if ('problem' in read) {
        issues.push({path: [], message: read.problem, line: chunk.line + 1})
        continue
      }
      const [key, value] = Object.entries((read.value ?? {}) as Record<string, unknown>)[0] ?? [chunk.key, null]
      if (seen.has(key)) {
        syntax.push({path: [], message: 'Map keys must be unique', line: chunk.line + 1})
        continue
      }
      seen.set(key, chunk)
      if (syntax.length === 0) keepEntry(kind, key, value, catalog, add, words)
    }
  }
  if (syntax.length > 0) return {catalog: {}, issues: syntax.sort((a, b) => (a.line ?? 0) - (b.line ?? 0))}
  if (values.version !== FORMAT_VERSION) add(['version'], `"version: ${FORMAT_VERSION}" is required (the format this till reads)`)
  for (const kind of KINDS) {
    const section = values[kind.section]
    if (section !== undefined && (section === null || typeof section !== 'object' || Array.isArray(section))) add([kind.section], notSection(kind))
  }
  return finish(catalog, issues, add)
}

/** One line per issue: `FILE:LINE: path: message`. */
export const issueLines = (file: string, issues: LocatedIssue[]) =>
  issues.map((i) => `${file}${i.line === undefined ? '' : `:${i.line}`}: ${i.path.length > 0 ? `${pathText(i.path)}: ` : ''}${i.message}`)
