// `till listen --write-env FILE`: the signing secret as a `POLAR_WEBHOOK_SECRET=...` line of a dotenv file,
// added or put in place of the one there, the rest of the file kept as it is. Written atomically (a
// temporary file beside it, renamed over it) with mode 0600, since the line is a secret.
import {chmodSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'

import {MiB, readOwnText} from '../../client/own-file.js'

export const SECRET_VARIABLE = 'POLAR_WEBHOOK_SECRET'

const LINE = new RegExp(`^\\s*(export\\s+)?${SECRET_VARIABLE}\\s*=`)

/** `text` with its POLAR_WEBHOOK_SECRET line (every one) replaced by one for `secret`, or one added at its end. */
export function withSecret(text: string, secret: string): string {
  const line = `${SECRET_VARIABLE}=${secret}`
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/)
  let placed = false
  const kept = lines.flatMap((l) => {
    if (!LINE.test(l)) return [l]
    if (placed) return []
    placed = true
    return [`${/^\s*export\s/.test(l) ? 'export ' : ''}${line}`]
  })
  if (!placed) kept.push(line)
  return `${kept.join('\n')}\n`
}

/** Writes `secret` into the dotenv file at `path` (made when missing). */
export function writeSecret(path: string, secret: string): void {
  let text = ''
  try {
    text = readOwnText(path, MiB)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  try {
    writeFileSync(tmp, withSecret(text, secret), {mode: 0o600, flag: 'wx'})
    // the mode a umask may have narrowed is what it asks for; a wider one never
    chmodSync(tmp, 0o600)
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, {force: true})
    throw error
  }
}
