// The warning for a profile (or TILL_API_VERSION) pinned to an API version the service is removing: one
// line on stderr, at most once a day per version, remembered in till's cache folder (a 0600 file).
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import type {VersionPin} from '../../client/answers.js'
import {MiB, readOwnText} from '../../client/own-file.js'
import {API_VERSION, API_VERSIONS, RETIRING_VERSIONS, type ApiVersion} from '../../client/version.js'

export const WARNING_FILE = 'api-version-warning.json'

/** The local calendar day of `now`, `YYYY-MM-DD`. */
function day(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** The warning's text, naming the exact command (or setting) that moves off the version. */
export function retiringVersionWarning(version: ApiVersion, source: 'built-in' | 'profile' | 'env', profile: string): string | undefined {
  const removed = RETIRING_VERSIONS[version]
  if (!removed) return undefined
  const move = source === 'env' ? `unset TILL_API_VERSION or set it to ${API_VERSION}` : `till profiles set ${profile} --api-version ${API_VERSION}`
  const who = source === 'env' ? 'TILL_API_VERSION' : `profile "${profile}"`
  return `Warning: ${who} pins API version ${version}, which the service removes in ${removed}; move to ${API_VERSION} with: ${move}`
}

/**
 * Who pins a version the service does not serve, and the exact command that moves it: to till's own
 * version, or, when that is the one refused, to the newest version till knows.
 */
export function versionPin(version: ApiVersion, source: 'built-in' | 'profile' | 'env', profile: string): VersionPin {
  const to = version === API_VERSION ? API_VERSIONS[API_VERSIONS.length - 1]! : API_VERSION
  const set = `till profiles set ${profile} --api-version ${to}`
  if (source === 'env') return {who: 'TILL_API_VERSION', move: `unset TILL_API_VERSION or set it to ${to}`}
  if (source === 'profile') return {who: `profile "${profile}"`, move: set}
  return {who: `till's built-in default (profile "${profile}")`, move: `${set}, or update till`}
}

/**
 * Whether the warning for `version` is due today; if so, records today in `<cacheDir>/api-version-warning.json`.
 * A cache folder that cannot be read or written never stops a command: the warning is then shown.
 */
export function warningDue(cacheDir: string, version: string, now: Date): boolean {
  const file = join(cacheDir, WARNING_FILE)
  let seen: Record<string, string> = {}
  try {
    const parsed = JSON.parse(readOwnText(file, MiB)) as unknown
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) seen = parsed as Record<string, string>
  } catch {
    // no file yet, or a damaged one: start over
  }
  const today = day(now)
  if (seen[version] === today) return false
  try {
    mkdirSync(cacheDir, {recursive: true, mode: 0o700})
    writeFileSync(file, `${JSON.stringify({...seen, [version]: today})}\n`, {mode: 0o600})
  } catch {
    // an unwritable cache folder: warned every time rather than never
  }
  return true
}
