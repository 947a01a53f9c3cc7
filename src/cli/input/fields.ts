// Values given on the command line or stdin.
import {promises as fs} from 'node:fs'
import {nestingDepth} from '../../client/json-depth.js'

import {fsReason} from '../../client/fs-problem.js'
import {setOwn} from '../../client/own-keys.js'
import {usageError} from '../../client/till-error.js'

/** `-F` values: numbers, booleans, null and JSON become typed; anything else stays text. */
export function typedValue(raw: string): unknown {
  if (raw === 'true') return true
  if (raw === 'false') return false
  if (raw === 'null') return null
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw)
  if (/^[[{"]/.test(raw)) {
    try {
      return JSON.parse(raw)
    } catch {
      return raw
    }
  }
  return raw
}

/**
 * `-f key=value` (text) and `-F key=value` (typed, see typedValue) pairs as one object, in the order given;
 * a pair without `key=` is a usage error with `example` as its hint.
 */
export function fieldPairs(text: string[] | undefined, typed: string[] | undefined, example: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [pairs, isTyped] of [
    [text, false],
    [typed, true],
  ] as const) {
    for (const pair of pairs ?? []) {
      const at = pair.indexOf('=')
      if (at <= 0) throw usageError(`field "${pair}" is not key=value`, example)
      fields[pair.slice(0, at)] = isTyped ? typedValue(pair.slice(at + 1)) : pair.slice(at + 1)
    }
  }
  return fields
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** A JSON body from a file, or from stdin for `-`. */
export async function readInput(source: string): Promise<unknown> {
  let text: string
  try {
    text = source === '-' ? await readStdin() : await fs.readFile(source, 'utf8')
  } catch (error) {
    throw usageError(`cannot read ${source}: ${fsReason(error)}`, 'give the path of a JSON file, or - for stdin')
  }
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ''))
  } catch (error) {
    throw usageError(`${source === '-' ? 'stdin' : source} is not JSON: ${(error as Error).message}`)
  }
  if (nestingDepth(value, MAX_INPUT_DEPTH) > MAX_INPUT_DEPTH) {
    throw usageError(
      `${source === '-' ? 'stdin' : source} nests deeper than ${MAX_INPUT_DEPTH} levels`,
      'the API takes no body shaped like that; check the input',
    )
  }
  return value
}

const MAX_INPUT_DEPTH = 200

// ---- key=value pairs and metadata ----

const KEY = /^[^=]{1,40}$/

/** `key=value` pairs split at the first `=`; a bad shape is a usage error naming the flag. */
function pairsOf(values: string[], flag: string): Array<[string, string]> {
  return values.map((pair) => {
    const at = pair.indexOf('=')
    const key = at < 0 ? '' : pair.slice(0, at)
    if (!KEY.test(key)) throw usageError(`${flag} takes key=value with a key of 1-40 characters, not "${pair}"`, `e.g. ${flag} plan=pro`)
    return [key, pair.slice(at + 1)]
  })
}

/** Repeated `key=value` flag values as an object; undefined when none is given. */
export function parsePairs(values: string[] | undefined, flag: string): Record<string, string> | undefined {
  return values && values.length > 0 ? Object.fromEntries(pairsOf(values, flag)) : undefined
}

/**
 * `--field slug=value` (repeatable): custom field data, each value typed as with -F (numbers, true, false,
 * null, JSON; `"12345"` in JSON quotes stays text); undefined when none is given.
 */
export function customFieldDataFrom(values: string[] | undefined, flag = '--field'): Record<string, unknown> | undefined {
  const pairs = parsePairs(values, flag)
  return pairs && Object.fromEntries(Object.entries(pairs).map(([slug, raw]) => [slug, typedValue(raw)]))
}

/** `--metadata key=value` (repeatable) as an object; undefined when none is given. Empty values are refused. */
export function metadataFrom(values: string[] | undefined, flag = '--metadata'): Record<string, string> | undefined {
  const pairs = parsePairs(values, flag)
  const empty = Object.entries(pairs ?? {}).find(([, value]) => value === '')
  if (empty) throw usageError(`${flag} ${empty[0]}= has an empty value`, 'metadata values are 1-500 characters; key= alone removes a key on update')
  return pairs
}

/** `current` with the pairs set; `key=` (an empty value) and the `remove` keys take keys away. */
export function mergeMetadata(current: unknown, values: string[] | undefined, remove: string[] = [], flag = '--metadata'): Record<string, unknown> {
  const next: Record<string, unknown> = {...(current && typeof current === 'object' ? current : {})}
  for (const [key, value] of pairsOf(values ?? [], flag)) {
    if (value === '') delete next[key]
    else setOwn(next, key, value)
  }
  for (const key of remove) delete next[key]
  return next
}
