// Values given on the command line or stdin.
import {readFile} from 'node:fs/promises'

import {usageError} from './errors.js'

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

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** A JSON body from a file, or from stdin for `-`. */
export async function readInput(source: string): Promise<unknown> {
  let text: string
  try {
    text = source === '-' ? await readStdin() : await readFile(source, 'utf8')
  } catch (error) {
    throw usageError(`cannot read ${source}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw usageError(`${source === '-' ? 'stdin' : source} is not JSON: ${(error as Error).message}`)
  }
}
