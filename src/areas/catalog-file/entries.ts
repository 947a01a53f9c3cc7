// A catalog file cut into its entries, so that each is parsed alone: the YAML parser's document of a whole
// large file takes hundreds of MiB and seconds; one entry's is a few kilobytes, dropped once read. Only the
// plain layout `till catalog pull` writes is cut (top-level keys at the first column, each section's entries
// at one indentation, in block style, no anchors, aliases, tags or document markers); any other file is read
// whole, as before, so what a file means never depends on the cut. An entry's text is made when it is read:
// the file's text is held once, with where each line starts.

/** The lines of a text, each read when asked: the text and where each line starts, not a string per line. */
class Lines {
  private readonly starts: Uint32Array
  readonly length: number

  constructor(private readonly text: string) {
    let count = 1
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++
    this.starts = new Uint32Array(count + 1)
    let n = 1
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts[n++] = i + 1
    this.starts[count] = text.length + 1
    this.length = count
  }

  /** Line `i` (0-based), without its line break or a carriage return before it. */
  at(i: number): string {
    const line = this.text.slice(this.starts[i], this.starts[i + 1]! - 1)
    return line.endsWith('\r') ? line.slice(0, -1) : line
  }
}

/** One entry of a section (or a top-level key): its key, the 0-based line of its key, and its own text. */
export interface Chunk {
  key: string
  line: number
  /** The entry's lines, unindented, as a YAML document of one key (`key:` and its value). */
  readonly text: string
}

/** An entry's lines [line, stop) of the file, unindented by `indent`: its text made when read, not held. */
class EntryChunk implements Chunk {
  constructor(
    readonly key: string,
    readonly line: number,
    private readonly stop: number,
    private readonly indent: number,
    private readonly lines: Lines,
  ) {}

  get text(): string {
    const own: string[] = []
    for (let i = this.line; i < this.stop; i++) {
      const l = this.lines.at(i)
      own.push(l.length - l.trimStart().length >= this.indent ? l.slice(this.indent) : '')
    }
    return own.join('\n')
  }
}

/** A top-level key: its value on its own line (`version: 1`, `products: {}`), or its entries below it. */
export interface Top extends Chunk {
  /** The section's entries, when its value is a block map below the key; undefined for a value on the key's line. */
  entries?: Chunk[]
}

// What only the whole parser can read right: anchors, aliases, tags and directives, document markers, tabs.
const WHOLE_ONLY = /(^|[\s:[{,-])[&*!][^\s]|^%|^(---|\.\.\.)(\s|$)|^\t/m
const TOP_KEY = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*))?$/
const ENTRY_KEY = /^[^\s#'"{[?\-|>][^:#]*:(\s|$)/
const skip = (line: string) => line.trim() === '' || line.trimStart().startsWith('#')

/** The file's top-level keys and entries, or undefined when its layout is not the plain one (read it whole). */
export function cutCatalog(text: string): Top[] | undefined {
  if (WHOLE_ONLY.test(text)) return undefined
  const lines = new Lines(text)
  const tops: Top[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines.at(i)
    if (skip(line)) {
      i++
      continue
    }
    const top = TOP_KEY.exec(line)
    if (!top) return undefined
    const start = i
    i++
    const rest = (top[2] ?? '').trim()
    if (rest !== '' && !rest.startsWith('#')) {
      // a value on the key's line (`version: 1`, `products: {}`): nothing may be indented below it
      while (i < lines.length && skip(lines.at(i))) i++
      if (i < lines.length && /^\s/.test(lines.at(i))) return undefined
      tops.push({key: top[1]!, line: start, text: line})
      continue
    }
    // the section's block: every line indented under it
    const end = blockEnd(lines, i)
    const entries = cutEntries(lines, i, end)
    if (!entries) return undefined
    // a key with nothing under it is a null value, as the whole parse reads it
    tops.push({key: top[1]!, line: start, text: line, ...(entries.length > 0 ? {entries} : {})})
    i = end
  }
  return tops
}

/** The first line at or after `from` that starts at the first column (not blank, not a comment). */
function blockEnd(lines: Lines, from: number): number {
  let i = from
  while (i < lines.length && (skip(lines.at(i)) || /^\s/.test(lines.at(i)))) i++
  return i
}

/** The entries of the section whose lines are [from, to): each from its key line to the next one's. */
function cutEntries(lines: Lines, from: number, to: number): Chunk[] | undefined {
  let indent = -1
  const starts: number[] = []
  for (let i = from; i < to; i++) {
    const line = lines.at(i)
    if (skip(line)) continue
    const own = line.length - line.trimStart().length
    if (indent < 0) indent = own
    if (own < indent) return undefined
    if (own === indent) {
      if (!ENTRY_KEY.test(line.slice(own))) return undefined
      starts.push(i)
    }
  }
  return starts.map((start, n) => {
    const key = lines
      .at(start)
      .slice(indent)
      .replace(/:(\s.*)?$/, '')
    return new EntryChunk(key.trim(), start, starts[n + 1] ?? to, indent, lines)
  })
}
