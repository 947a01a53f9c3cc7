// Profiles: named sets of environment, base URL, token, negotiated rate limit and organization.
// Stored with conf in `<config dir>/config.json` (mode 0600); `TILL_CONFIG_DIR` moves the folder. A profile's
// token lives in the OS keyring where one answers, and only then out of this file (secrets.ts).
// Reads go straight to the file (conf's schema machinery is not needed to read JSON, and stays off
// the start-up path of every command); writes go through conf.
import {chmodSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'

import type {OAuthTokens} from '../../client/oauth.js'
import {fsReason} from '../../client/fs-problem.js'
import {MiB, readOwnText} from '../../client/own-file.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export const ENVIRONMENTS = ['production', 'sandbox', 'local'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

export const DEFAULT_URLS: Record<Environment, string> = {
  production: 'https://api.polar.sh/v1',
  sandbox: 'https://sandbox-api.polar.sh/v1',
  local: 'http://127.0.0.1:4010/v1',
}

/** Where `till emulator start` serves each environment (its default ports). */
export const EMULATOR_URLS: Record<string, string> = {production: 'http://127.0.0.1:4010/v1', sandbox: 'http://127.0.0.1:4011/v1'}

export interface ProfileRecord {
  environment: Environment
  base_url?: string
  token?: string
  /** Negotiated per-minute budget, e.g. `1000/60s` (arranged with the service's support). */
  rate_limit?: string
  organization_id?: string
  /** A browser sign-in's tokens (access, refresh, expiry, scopes); used instead of `token`. */
  oauth?: OAuthTokens
  /** The public OAuth2 client (`polar_ci_...`) the browser sign-in uses; the emulator has one built in. */
  oauth_client_id?: string
  /** `Polar-Version` to send instead of the one till is built for, e.g. `2026-10`. */
  api_version?: string
  /**
   * Where the token (or the browser sign-in) is kept: in the OS keyring (`keyring` names its entry; the file
   * holds no secret), or in this file. Absent on a profile saved before till used the keyring: its token
   * moves there on first use.
   */
  token_store?: 'keyring' | 'file'
  /** Why a token is in the file: chosen (--insecure-storage), or no keyring answered when it was stored. */
  token_store_reason?: 'insecure-storage' | 'no-keyring'
  /** The keyring entry (service `till`, this account) and whether it holds a token or a browser sign-in. */
  keyring?: {account: string; holds: 'token' | 'oauth'}
}

export interface ConfigData {
  active: string
  profiles: Record<string, ProfileRecord>
}

export const LOCAL_PROFILE = 'local'

/**
 * Profiles by name in an object without a prototype: a profile named `toString`, `constructor` or
 * `__proto__` is looked up, added and removed as any other (in a plain object they are Object's own).
 */
export const profileMap = (...sources: Array<Record<string, ProfileRecord> | undefined>): Record<string, ProfileRecord> =>
  Object.assign(Object.create(null) as Record<string, ProfileRecord>, ...sources)

/** What a fresh install has: one profile, `local`, bound to the emulator, active. */
export const defaultConfig = (): ConfigData => ({active: LOCAL_PROFILE, profiles: profileMap({[LOCAL_PROFILE]: {environment: 'local'}})})

export const configDir = (oclifConfigDir: string) => process.env.TILL_CONFIG_DIR || oclifConfigDir
export const configFile = (dir: string) => join(dir, 'config.json')

function invalid(file: string, why: string): TillError {
  return new TillError(`the config file ${file} is not valid: ${why}`, ExitCode.error, `fix it, or move it away to start over with the default "local" profile`)
}

/** A config holds a few profiles (a kilobyte each, with a browser sign-in): one past this is something else. */
export const CONFIG_MAX_BYTES = MiB

/**
 * Reads the config, or the default one when there is no file yet. A damaged file is a clear error, and so is
 * one that is not a regular file (a folder, a FIFO, a device: own-file.ts), never read.
 */
export function readConfig(dir: string): ConfigData {
  const file = configFile(dir)
  let text: string
  try {
    text = readOwnText(file, CONFIG_MAX_BYTES)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig()
    throw invalid(file, fsReason(error))
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw invalid(file, `not JSON (${(error as Error).message})`)
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalid(file, 'expected a JSON object')
  const {active, profiles} = data as Partial<ConfigData>
  if (profiles !== undefined && (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)))
    throw invalid(file, '"profiles" must be an object')
  for (const [name, p] of Object.entries(profiles ?? {})) {
    if (!p || typeof p !== 'object' || !ENVIRONMENTS.includes((p as ProfileRecord).environment)) {
      throw invalid(file, `profile "${name}" needs an environment of ${ENVIRONMENTS.join(', ')}`)
    }
  }
  const merged = profileMap(defaultConfig().profiles, profiles)
  return {active: typeof active === 'string' ? active : LOCAL_PROFILE, profiles: merged}
}

/**
 * Changes the config through conf and keeps the file private (0600, folder 0700). The read, the change
 * and the write hold the config's lock: two till processes changing it at once (12 `profiles add` from
 * a script, an OAuth renewal beside a `profiles use`) each keep their change.
 */
export async function updateConfig(dir: string, change: (data: ConfigData) => void): Promise<ConfigData> {
  mkdirSync(dir, {recursive: true, mode: 0o700})
  const [{default: Conf}, {withLock}] = await Promise.all([import('conf'), import('../../client/lockfile.js')])
  const lock = join(dir, '.config.lock')
  try {
    return await withLock(lock, () => {
      const data = readConfig(dir)
      change(data)
      const store = new Conf<ConfigData>({
        cwd: dir,
        configName: 'config',
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
      })
      store.store = data
      chmodSync(configFile(dir), 0o600)
      return data
    })
  } catch (error) {
    if (error instanceof TillError || !/^timed out .* waiting for the lock/.test((error as Error).message)) throw error
    throw new TillError(
      `another till process has held the config's lock ${lock} for too long`,
      ExitCode.busy,
      'try again; if no other till process is running, delete that file',
    )
  }
}

/** Where a profile's stored credential is (for `auth status`, `profiles list`): the keyring, the file, or none. */
export function tokenStoreOf(p: ProfileRecord | undefined): 'keyring' | 'file' | null {
  if (p?.token_store === 'keyring' && p.keyring) return 'keyring'
  return p?.token || p?.oauth ? 'file' : null
}

/** True when the profile's credential is read from the OS keyring, or moved there, before use (secrets.ts). */
export const needsKeyring = (p: ProfileRecord | undefined): boolean =>
  Boolean(p && ((p.token_store === 'keyring' && p.keyring) || (p.token_store === undefined && (p.token || p.oauth))))

export function validProfileName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/.test(name)
}

/**
 * What a sign-in says about the active profile it changed: the profile it replaced and how to go back
 * (`till profiles use` is not needed after a sign-in, and a newcomer should not learn that by surprise).
 */
export function activeSentence(previous: string | undefined, name: string): string {
  if (previous === undefined || previous === name) return `Profile "${name}" is the active one.`
  return `Profile "${name}" is now the active one, in place of "${previous}" (go back with: till profiles use ${previous}).`
}
