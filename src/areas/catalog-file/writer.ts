// The catalog file written an entry at a time: sections in dependency order, keys sorted, each entry made
// only when it is written and checked as it goes (its schema, money, and its references, which always name
// an entry of an earlier section). A pull of 60,000 products held the whole catalog twice before writing it,
// as entries and as text; now it holds neither, and what the file cannot hold as it is is found without
// reading the file back.
import {Document} from 'yaml'

import {checkEntry, documentValue, FORMAT_VERSION, HEADER, parseYaml, type Catalog, type LocatedIssue} from './document.js'
import {KINDS, type AnyKind} from './kinds/index.js'
import type {Path} from './kinds/kind.js'

/** One section to write: its keys (written sorted) and each key's entry, made when it is written. */
export interface Section {
  keys: string[]
  entry(key: string): unknown
}

/** The file's first lines: its comment and `version`. */
function headerText(): string {
  const header = new Document({version: FORMAT_VERSION})
  header.commentBefore = HEADER
  return header.toString({lineWidth: 0})
}

const lineCount = (text: string) => {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}

/**
 * The file's text in pieces (the header, then one entry or section line at a time). Once every piece is
 * taken, `issues` holds what reading the file back would report, with lines, in line order: an entry's
 * values are checked as they are, and only an entry with an issue is read back from its text to place it.
 */
export function* catalogPieces(sectionOf: (kind: AnyKind) => Section | undefined, issues: LocatedIssue[] = []): Generator<string> {
  const valid = new Map<string, Set<string>>(KINDS.map((kind) => [kind.section, new Set()]))
  const found: LocatedIssue[] = []
  const dangling: LocatedIssue[] = []
  let line = 0
  const emit = (text: string) => {
    line += lineCount(text)
    return text
  }
  yield emit(headerText())
  for (const kind of KINDS) {
    const section = sectionOf(kind)
    const keys = [...(section?.keys ?? [])].sort()
    if (!section || keys.length === 0) {
      yield emit(`${kind.section}: {}\n`)
      continue
    }
    yield emit(`${kind.section}:\n`)
    for (const key of keys) {
      const value = section.entry(key)
      const text = new Document({[key]: value}).toString({lineWidth: 0})
      const at = line
      yield emit(text.replace(/^(?=.)/gm, '  '))
      let ok = true
      const data = checkEntry(kind, key, value, () => {
        ok = false
      })
      if (ok && refsMissing(kind, data, valid).length === 0) {
        valid.get(kind.section)!.add(key)
        continue
      }
      // read back from its text, as a read of the file would, to place each issue on its line
      const parsed = parseYaml(text, at)
      const read = documentValue(parsed.doc)
      const [readKey, readValue] = 'value' in read ? (Object.entries((read.value ?? {}) as Record<string, unknown>)[0] ?? [key, null]) : [key, null]
      const located = (path: Path, message: string): LocatedIssue => ({path, message, line: parsed.locate(path.slice(1))})
      const entry = checkEntry(kind, readKey, readValue, (path, message) => found.push(located(path, message)))
      if (entry === undefined) continue
      valid.get(kind.section)!.add(readKey)
      for (const ref of refsMissing(kind, entry, valid)) {
        const path: Path = [kind.section, readKey, ...ref.path]
        dangling.push(located(path, `no ${ref.kind} entry has the key "${ref.key}"`))
      }
    }
  }
  // as a read reports them: the entries' own issues, then their references, in line order
  issues.push(...[...found, ...dangling].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)))
}

/** The references of an entry (checked by its schema) that name no entry written before it. */
function refsMissing(kind: AnyKind, entry: unknown, valid: Map<string, Set<string>>) {
  if (entry === undefined) return []
  return (kind.references?.(entry) ?? []).filter((ref) => !valid.get(ref.kind)?.has(ref.key))
}

/** A catalog held whole, as YAML: the same text as its pieces. */
export function writeCatalog(catalog: Catalog): string {
  const sectionOf = (kind: AnyKind): Section | undefined => {
    const entries = catalog[kind.section]
    return entries && {keys: Object.keys(entries), entry: (key) => entries[key]}
  }
  return [...catalogPieces(sectionOf)].join('')
}
