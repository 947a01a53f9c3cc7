// A store that holds only its seed manifest (nothing written yet) is generated again at every start; a
// command's own emulator starts for each command. The generated state is kept beside the store
// (`<store>.seed`) for the next start: reading it back costs a fraction of generating
// it. Only the built emulator keeps one, keyed by its bundle's size and time
// besides the manifest, so that another build (another seed generator) never reads an older one's.
import {renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {MiB, readOwnText} from '../../client/own-file.js'
import type {EnvData} from './model.js'
import type {SeedManifest} from './store.js'

/**
 * Seeds of more rows than this are generated each time, as before, and not written out (100,000 orders
 * would be about 140 MB); the default sizes make 379 rows, 257 KB.
 */
const MAX_ROWS = 2_000

/** The built emulator's identity (bundle path, size and time), or undefined when running from sources. */
function buildOf(moduleUrl: string): string | undefined {
  if (!moduleUrl.endsWith('.cjs')) return undefined
  try {
    const path = fileURLToPath(moduleUrl)
    const {size, mtimeMs} = statSync(path)
    return `${path}:${size}:${mtimeMs}`
  } catch {
    return undefined
  }
}

const build = buildOf(import.meta.url)

/** The first line of a kept state: what it was made by and from, which a reader must find the same. */
const keyOf = (manifest: SeedManifest): string => JSON.stringify({build, manifest})

/** A seeded state is at most the emulator's largest data (its --orders and --customers): a file past it is not one. */
const DATA_MAX_BYTES = 512 * MiB

/** The state `manifest` seeds: from the cache beside `storeFile` when it was made by this build for it, else `make()` (then cached). */
export function seededState(storeFile: string, manifest: SeedManifest, make: () => EnvData): EnvData {
  if (build === undefined) return make()
  const file = `${storeFile}.seed`
  const key = keyOf(manifest)
  try {
    const text = readOwnText(file, DATA_MAX_BYTES)
    const newline = text.indexOf('\n')
    if (newline > 0 && text.slice(0, newline) === key) return JSON.parse(text.slice(newline + 1)) as EnvData
  } catch {
    // none yet, or unreadable: made again below
  }
  const data = make()
  keepSeededState(storeFile, manifest, data)
  return data
}

/** Keeps `data`, just seeded from `manifest`, beside `storeFile` for the next start (the built emulator only). */
export function keepSeededState(storeFile: string, manifest: SeedManifest, data: EnvData): void {
  if (build === undefined) return
  const file = `${storeFile}.seed`
  const temporary = `${file}.${process.pid}.tmp`
  try {
    const rows = Object.values(data).reduce((n: number, value) => n + (Array.isArray(value) ? value.length : 0), 0)
    if (rows > MAX_ROWS) rmSync(file, {force: true})
    else {
      // whole or not at all: a start never reads half of one
      writeFileSync(temporary, `${keyOf(manifest)}\n${JSON.stringify(data)}`, {mode: 0o600})
      renameSync(temporary, file)
    }
  } catch {
    rmSync(temporary, {force: true})
  }
}
