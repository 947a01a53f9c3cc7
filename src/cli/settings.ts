// The one place `TILL_*` settings are read from the environment: a variable set to the empty string
// (`TILL_ENV=$DEPLOY_ENV` with the variable unset) means the same as not set at all, and a value that is
// present but invalid is a usage error naming the variable and what it accepts (exit 2); a token with a
// space or control character is a bad credential (exit 4), never something sent to retry as a network fault.
import {statSync} from 'node:fs'

import {printable} from '../client/ids.js'
import {ExitCode, TillError, usageError} from '../client/till-error.js'
import {MAX_TIMER_SECONDS} from '../client/timer.js'
import {isKnownApiVersion, KNOWN_VERSIONS_TEXT} from '../client/version.js'
import {terminalLines} from './output/format.js'

/** Settings whose empty value means something: `TILL_PAGER=` turns the pager off (as `GH_PAGER=`). */
const EMPTY_MEANS_OFF = new Set(['TILL_PAGER'])

/** Removes every `TILL_*` variable whose value is empty, before anything (oclif's flag parser too) reads them. */
export function dropEmptySettings(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(env)) {
    if (key.startsWith('TILL_') && !EMPTY_MEANS_OFF.has(key) && env[key]?.trim() === '') delete env[key]
  }
}

/** Words a yes/no setting accepts (any case); the first half mean yes. */
export const BOOLEAN_WORDS = ['1', 'true', 'yes', 'y', '0', 'false', 'no', 'n'] as const

/** Whether a yes/no setting's value means yes (callers check it first with `checkSettings`). */
export const isYes = (value: string | undefined): boolean => value !== undefined && ['1', 'true', 'yes', 'y'].includes(value.toLowerCase())

/** A folder setting's value: no control characters, and not a file (a missing folder is made on first use). */
export const isFolderPath = (value: string): boolean => {
  if (/[\u0000-\u001f\u007f]/.test(value)) return false
  try {
    return statSync(value).isDirectory()
  } catch {
    return true // not there yet: created on first use
  }
}

/** A token or secret: printable characters only, no spaces, no line breaks. */
export const isPlainToken = (value: string): boolean => /^[\u0021-\u007e]+$/.test(value)

/**
 * The service's tokens are under a hundred characters; one much longer is something else pasted (a file,
 * a whole export), which the service would answer with "HTTP 431" (its headers too large).
 */
export const MAX_TOKEN_LENGTH = 2048

/** Why `value` cannot be a token because of its length, or null. `what` names it ("TILL_TOKEN"). */
export function tokenLengthProblem(value: string, what: string): TillError | null {
  if (value.length <= MAX_TOKEN_LENGTH) return null
  return new TillError(
    `${what} is not a valid token: it is ${value.length} characters long, and a token is under 100 (something else was pasted?)`,
    ExitCode.auth,
    'copy the token alone from the dashboard (Settings > Developers), or sign in again: till auth login',
  )
}

/** A deadline in seconds a timer can hold: at least 1 ms once rounded, at most MAX_TIMER_SECONDS (a timer past it fires at once). */
const isDeadline = (v: string): boolean => /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) >= 0.001 && Number(v) <= MAX_TIMER_SECONDS

interface Setting {
  accepts: string
  valid: (value: string) => boolean
  /** Credentials are refused as auth errors (exit 4) rather than usage errors. */
  credential?: boolean
  /** A secret's value is never shown in an error, not even escaped (CI logs keep what a command prints). */
  secret?: boolean
}

const yesNo: Setting = {accepts: `one of ${BOOLEAN_WORDS.join(', ')}`, valid: (v) => (BOOLEAN_WORDS as readonly string[]).includes(v.toLowerCase())}
const folder: Setting = {accepts: 'a folder path (not a file, no control characters)', valid: isFolderPath}
const token: Setting = {accepts: 'a token alone (no spaces, line breaks or control characters)', valid: isPlainToken, credential: true, secret: true}

/**
 * The settings checked here, before any command runs. TILL_API_URL, TILL_RATE_LIMIT and TILL_PROFILE are
 * checked where the profile is resolved (their messages name the profile's values they override).
 */
export const SETTINGS: ReadonlyMap<string, Setting> = new Map<string, Setting>([
  ['TILL_ENV', {accepts: 'one of production, sandbox, local', valid: (v) => ['production', 'sandbox', 'local'].includes(v)}],
  ['TILL_DEBUG', yesNo],
  ['TILL_NO_INPUT', yesNo],
  ['TILL_CONFIG_DIR', folder],
  ['TILL_DATA_DIR', folder],
  ['TILL_CACHE_DIR', folder],
  ['TILL_EMULATOR_DATA', folder],
  ['TILL_TOKEN', token],
  ['TILL_CUSTOMER_TOKEN', token],
  ['TILL_WEBHOOK_SECRET', {...token, credential: false, accepts: 'the secret alone (no spaces, line breaks or control characters)'}],
  ['TILL_API_VERSION', {accepts: `an API version the service knows, ${KNOWN_VERSIONS_TEXT}`, valid: isKnownApiVersion}],
  ['TILL_REQUEST_DEADLINE', {accepts: `a number of seconds from 0.001 to ${MAX_TIMER_SECONDS} (e.g. 60)`, valid: isDeadline}],
  ['TILL_TEST_FAULT', {accepts: 'internal (a test-only hook)', valid: (v) => v === 'internal'}],
])

/** Throws for the first set `TILL_*` variable whose value its setting does not accept. */
export function checkSettings(env: NodeJS.ProcessEnv): void {
  for (const [name, setting] of SETTINGS) {
    const value = env[name]
    if (value !== undefined && setting.credential) {
      const tooLong = tokenLengthProblem(value, name)
      if (tooLong) throw tooLong
    }
    if (value === undefined || setting.valid(value)) continue
    if (setting.credential) {
      // The value is a secret: never shown, not even escaped.
      throw new TillError(
        `${name} is not a valid token: it has a space, line break or control character in it`,
        ExitCode.auth,
        `set ${name} to ${setting.accepts}`,
      )
    }
    if (setting.secret) throw usageError(`${name} is not valid: it has a space, line break or control character in it`, `set ${name} to ${setting.accepts}`)
    throw usageError(`${name} must be ${setting.accepts}, not "${printable(value)}"`, `fix or unset ${name}`)
  }
}

/**
 * Text for an error line: control characters (a terminal escape, a carriage return) and characters that
 * reorder text (U+202E) shown escaped; the output layer's terminalLines, under the name errors know it by.
 */
export const escapeControls = terminalLines

/** TILL_REQUEST_DEADLINE in ms (checked by `checkSettings`): how long one request may take, to its answer's last byte. */
export const requestDeadlineMs = (env: NodeJS.ProcessEnv): number | undefined =>
  env.TILL_REQUEST_DEADLINE === undefined ? undefined : Math.round(Number(env.TILL_REQUEST_DEADLINE) * 1000)

/** Where to report a bug in till itself. */
export const REPORT_URL = "the till project's issue tracker (with the output of --debug)"

/** JavaScript's own errors: a defect in till, never something the user did. */
export function isInternalError(error: unknown): boolean {
  return (
    error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError || error instanceof EvalError
  )
}

/**
 * For the entry point, before oclif reads `TILL_CONFIG_DIR`/`TILL_DATA_DIR` itself: drops the empty
 * settings and returns the error line(s) and exit code for the first invalid one, if any.
 */
export function settingsProblem(env: NodeJS.ProcessEnv): {text: string; exitCode: number} | undefined {
  dropEmptySettings(env)
  try {
    checkSettings(env)
    return undefined
  } catch (error) {
    const e = error as TillError
    return {text: `Error: ${e.message}\n${e.hint ? `Hint: ${e.hint}\n` : ''}`, exitCode: e.exitCode}
  }
}
