// A profile resolved from the command line, the environment and the config: which environment, base URL,
// token, API version and rate budgets a command uses (and the emulator's token for the local profile).
import {join} from 'node:path'

import {DEFAULT_URLS, EMULATOR_URLS, ENVIRONMENTS, LOCAL_PROFILE, tokenStoreOf, type ConfigData, type Environment, type ProfileRecord} from './profiles.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {parseRateLimit, type Rule} from '../../client/rate-limit.js'
import {printable} from '../../client/ids.js'
import {MiB, readOwnText} from '../../client/own-file.js'
import {API_VERSION, isKnownApiVersion, KNOWN_VERSIONS_TEXT, type ApiVersion} from '../../client/version.js'
import {isLoopbackHost} from '../../client/origin.js'
import type {OAuthTokens} from '../../client/oauth.js'
import {isPlainToken, tokenLengthProblem} from '../settings.js'

/** Per-minute budgets of each environment (server/polar/rate_limit.py); `local` is the emulator's production. */
export const ENVIRONMENT_BUDGETS: Record<Environment, Rule> = {
  production: {limit: 500, windowMs: 60_000},
  sandbox: {limit: 100, windowMs: 60_000},
  local: {limit: 500, windowMs: 60_000},
}
export const PER_IP_BUDGET: Rule = {limit: 100, windowMs: 1000}

export interface ResolvedProfile {
  name: string
  environment: Environment
  baseUrl: string
  token?: string
  /** Where the token came from, for `auth status` and hints. */
  tokenSource: 'env' | 'profile' | 'oauth' | 'emulator' | 'none'
  /** Where the profile's stored credential lives (the keyring's is read by `Context.profileWithCredential`). */
  tokenStore: 'keyring' | 'file' | null
  /** The browser sign-in's tokens, when the token is its access token. */
  oauth?: OAuthTokens
  /** Where the base URL came from: TILL_API_URL overrides the profile's. */
  urlSource: 'env' | 'profile' | 'default'
  rateLimit: Rule
  rateLimitSource: 'environment' | 'profile' | 'env'
  organizationId?: string
  /** The `Polar-Version` sent with every request, and where it came from. */
  apiVersion: ApiVersion
  apiVersionSource: 'built-in' | 'profile' | 'env'
}

export interface ResolveInput {
  /** `--profile`, or `TILL_PROFILE` (oclif reads the variable into the flag). */
  flag?: string
  env: NodeJS.ProcessEnv
  config: ConfigData
  /** The emulator's data folder, for the `local` profile's token. */
  emulatorDataDir: string
}

function envFromUrl(url: string): Environment {
  const host = new URL(url).hostname
  if (host === 'api.polar.sh') return 'production'
  if (host === 'sandbox-api.polar.sh') return 'sandbox'
  return isLoopbackHost(host) ? 'local' : 'production'
}

function rule(text: string, from: string): Rule {
  try {
    const r = parseRateLimit(text)
    if (!r) throw new Error('"off" is not allowed here')
    return r
  } catch (error) {
    throw usageError(`${from}: ${(error as Error).message}`)
  }
}

function emulatorToken(dataDir: string): string | undefined {
  try {
    const creds = JSON.parse(readOwnText(join(dataDir, 'credentials.json'), MiB)) as {production?: {token?: string}}
    return creds.production?.token
  } catch {
    return undefined
  }
}

/**
 * Whether a local profile uses the token of the emulator's default data folder: only one that keeps no
 * credential of its own (a keyring entry, a token in the file, even an empty or damaged one), and that has no
 * URL of its own unless it is the `local` profile, which `till emulator start` serves from that folder.
 * Any other profile with a URL of its own is for an emulator of its own, and never takes another store's token.
 */
function takesEmulatorToken(name: string, stored: ProfileRecord, urlFromEnv: boolean): boolean {
  const ownCredential = stored.token_store !== undefined || stored.keyring !== undefined || stored.token !== undefined || stored.oauth !== undefined
  return !ownCredential && (urlFromEnv || !stored.base_url || name === LOCAL_PROFILE)
}

/**
 * Which profile and settings a command uses. The profile is `--profile`/`TILL_PROFILE`, else the active
 * one; `TILL_TOKEN`, `TILL_API_URL`, `TILL_ENV` and `TILL_RATE_LIMIT` override its values (config-less use).
 */
export function resolveProfile({flag, env, config, emulatorDataDir}: ResolveInput): ResolvedProfile {
  const name = flag || config.active
  const stored = config.profiles[name]
  if (!stored) {
    // A fresh install has only `local`: the environments' own profiles come from signing in to them.
    const hint = (ENVIRONMENTS as readonly string[]).includes(name)
      ? `sign in to ${name} first, which creates the profile "${name}": till auth login --environment ${name} (offline, the emulator's ${name}: add --url ${EMULATOR_URLS[name]})`
      : `see the profiles with: till profiles list (or add one with: till profiles add ${name})`
    throw usageError(`there is no profile named "${name}"`, hint)
  }
  if (env.TILL_ENV && !ENVIRONMENTS.includes(env.TILL_ENV as Environment)) {
    throw usageError(`TILL_ENV must be one of ${ENVIRONMENTS.join(', ')}, not "${env.TILL_ENV}"`)
  }
  const apiUrl = env.TILL_API_URL
  if (apiUrl && !/^https?:\/\/[^\s]+$/.test(apiUrl)) {
    // what comes before an @ may be a password (https://user:se cret@host), shown as an ellipsis whatever it holds
    throw usageError(`TILL_API_URL is not a URL: "${printable(apiUrl.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[\s\S]*@/i, '$1…@'))}"`)
  }
  const environment = (env.TILL_ENV as Environment | undefined) ?? (apiUrl ? envFromUrl(apiUrl) : stored.environment)
  const baseUrl = apiUrl || stored.base_url || DEFAULT_URLS[environment]
  let token: string | undefined
  let tokenSource: ResolvedProfile['tokenSource'] = 'none'
  if (env.TILL_TOKEN) {
    token = env.TILL_TOKEN
    tokenSource = 'env'
  } else if (stored.oauth?.access_token) {
    if (!isPlainToken(stored.oauth.access_token) || (stored.oauth.refresh_token !== undefined && !isPlainToken(stored.oauth.refresh_token))) {
      throw new TillError(
        `the browser sign-in of profile "${name}" is damaged: a token has a space, line break or control character in it`,
        ExitCode.auth,
        `sign in again: till auth login -p ${name} --web`,
      )
    }
    token = stored.oauth.access_token
    tokenSource = 'oauth'
  } else if (stored.token !== undefined) {
    if (stored.token === '') {
      throw new TillError(`the token of profile "${name}" is empty`, ExitCode.auth, `log in again: till auth login -p ${name}`)
    }
    const tooLong = tokenLengthProblem(stored.token, `the token of profile "${name}"`)
    if (tooLong) throw tooLong
    if (!isPlainToken(stored.token)) {
      throw new TillError(
        `the token of profile "${name}" is not valid: it has a space, line break or control character in it`,
        ExitCode.auth,
        `log in again: till auth login -p ${name}`,
      )
    }
    token = stored.token
    tokenSource = 'profile'
  } else if (environment === 'local' && takesEmulatorToken(name, stored, Boolean(apiUrl))) {
    token = emulatorToken(emulatorDataDir)
    if (token) tokenSource = 'emulator'
  }
  let rateLimit = ENVIRONMENT_BUDGETS[environment]
  let rateLimitSource: ResolvedProfile['rateLimitSource'] = 'environment'
  if (env.TILL_RATE_LIMIT) {
    rateLimit = rule(env.TILL_RATE_LIMIT, 'TILL_RATE_LIMIT')
    rateLimitSource = 'env'
  } else if (stored.rate_limit) {
    rateLimit = rule(stored.rate_limit, `profile "${name}" rate_limit`)
    rateLimitSource = 'profile'
  }
  let apiVersion: string = API_VERSION
  let apiVersionSource: ResolvedProfile['apiVersionSource'] = 'built-in'
  if (env.TILL_API_VERSION) {
    apiVersion = env.TILL_API_VERSION
    apiVersionSource = 'env'
  } else if (stored.api_version) {
    apiVersion = stored.api_version
    apiVersionSource = 'profile'
  }
  if (!isKnownApiVersion(apiVersion)) {
    const where = apiVersionSource === 'env' ? 'TILL_API_VERSION' : `profile "${name}" api_version`
    throw usageError(`${where} must be an API version the service knows, ${KNOWN_VERSIONS_TEXT}, not "${printable(apiVersion)}"`)
  }
  const urlSource: ResolvedProfile['urlSource'] = apiUrl ? 'env' : stored.base_url ? 'profile' : 'default'
  const oauth = tokenSource === 'oauth' ? stored.oauth : undefined
  return {
    name,
    environment,
    baseUrl,
    token,
    tokenSource,
    tokenStore: tokenStoreOf(stored),
    oauth,
    urlSource,
    rateLimit,
    rateLimitSource,
    organizationId: stored.organization_id,
    apiVersion,
    apiVersionSource,
  }
}
