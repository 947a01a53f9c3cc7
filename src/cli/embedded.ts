// The emulator run inside a command (the `local` profile with nothing answering), and what the command says
// about it: that it runs (at most once a minute per data folder, so a script of many commands is not told on
// each), and that the URLs it printed on the emulator's address (a checkout, a receipt, an invoice, a
// portal) stop answering when the command ends.
import {mkdirSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {MiB, readOwnText} from '../client/own-file.js'

const NOTE_FILE = 'embedded-emulator-note.json'
export const NOTE_EVERY_MS = 60_000

/**
 * Whether the note on the emulator run inside a command is due for `dataDir`: not said for it within the
 * last minute. Records `now` when it is, in `<cacheDir>/embedded-emulator-note.json` (mode 0600), read as
 * till reads its own files. A cache folder that cannot be read or written never stops a command: the note
 * is then said.
 */
export function embeddedNoteDue(cacheDir: string, dataDir: string, now: number): boolean {
  const file = join(cacheDir, NOTE_FILE)
  let said: Record<string, number> = {}
  try {
    const parsed = JSON.parse(readOwnText(file, MiB)) as unknown
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) said = parsed as Record<string, number>
  } catch {
    // no file yet, or a damaged one: start over
  }
  const last = said[dataDir]
  // a time ahead of now (a clock set back) is not trusted to hold the note
  if (typeof last === 'number' && last <= now && now - last < NOTE_EVERY_MS) return false
  // only the folders told within the minute are kept: the file never grows past the folders in use
  const kept = Object.fromEntries(Object.entries(said).filter(([, at]) => typeof at === 'number' && at <= now && now - at < NOTE_EVERY_MS))
  // written beside it and renamed over it: a FIFO or a device at the path is replaced, never opened
  const temporary = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(cacheDir, {recursive: true, mode: 0o700})
    writeFileSync(temporary, `${JSON.stringify({...kept, [dataDir]: now})}\n`, {mode: 0o600})
    renameSync(temporary, file)
  } catch {
    // an unwritable cache folder: said every time rather than never
    rmSync(temporary, {force: true})
  }
  return true
}

/** The note for URLs printed on `origin`, the address of an emulator run inside the command. */
export function shortLivedUrls(origin: string): string {
  return (
    `Note: the URLs printed above are on ${origin}, the emulator run inside this command, and stop answering as it ends. ` +
    'For URLs that keep working, start one in another terminal (till emulator start) and run the command again.'
  )
}

/**
 * Watches what is written to `stream` for `origin`: whether a URL on it was printed. The stream's own
 * write is kept and called as it was.
 */
export function watchFor(stream: NodeJS.WritableStream, origin: string): () => boolean {
  let seen = false
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!seen && (typeof chunk === 'string' || Buffer.isBuffer(chunk)) && chunk.toString().includes(`${origin}/`)) seen = true
    return write(chunk, ...rest)
  }) as typeof stream.write
  return () => seen
}

export interface Embedded {
  url: string
  token: string
  /** Stops it, first saying so of the URLs on it that were printed. */
  close: () => Promise<void>
}

/** Starts the emulator on a free port of loopback, production alone, on `dataDir`; `url` is what did not answer. */
export async function startEmbedded(o: {
  url: string
  dataDir: string
  cacheDir: string | undefined
  stdout: NodeJS.WritableStream
  note: (line: string) => void
}): Promise<Embedded> {
  const {startEmulator} = await import('../emulator/index.js')
  const emulator = await startEmulator({port: 0, dataDir: o.dataDir, productionOnly: true})
  const production = emulator.environments.production
  const origin = new URL(production.url).origin
  const printed = watchFor(o.stdout, origin)
  if (!o.cacheDir || embeddedNoteDue(o.cacheDir, o.dataDir, Date.now()))
    o.note(`Nothing answers at ${o.url}; using an emulator run inside this command (data: ${o.dataDir}). Start one with: till emulator start`)
  const close = () => {
    if (printed()) o.note(shortLivedUrls(origin))
    return emulator.close()
  }
  return {url: production.url, token: production.organization_token, close}
}
