// Everything a command needs, built lazily: the resolved profile, the API client (and, for the
// `local` profile with nothing listening, an emulator run in-process), the terminal facts.
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {isatty} from 'node:tty'

import type {ApiClient} from '../client/client.js'
import type {OAuthTokens, TokenProvider} from '../client/oauth.js'
import type {Budget} from '../client/pace.js'
import {configDir, LOCAL_PROFILE, needsKeyring, readConfig} from './config/profiles.js'
import {ExitCode, TillError, usageError} from '../client/till-error.js'
import {redact, redactUrlCredentials} from '../client/redact.js'
import {assertSafeBaseUrl, isLoopbackHost} from '../client/origin.js'
import {environmentClock} from './environment-clock.js'
import {retiringVersionWarning, versionPin, warningDue} from './config/version-warning.js'
import {requestDeadlineMs} from './settings.js'
import {terminalLines} from './output/format.js'

import {answers, sessionRefused} from './reachability.js'
export {ENVIRONMENT_BUDGETS, PER_IP_BUDGET, resolveProfile, type ResolvedProfile, type ResolveInput} from './config/resolve-profile.js'
import {PER_IP_BUDGET, resolveProfile, type ResolvedProfile} from './config/resolve-profile.js'
import {budgetWaitReason} from './wait-reason.js'

export interface IO {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  stdinIsTTY: boolean
}

export const processIO = (): IO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  // asked of the descriptor: process.stdin would open a stream on it (a file's loads fs streams)
  stdinIsTTY: isatty(0),
})

export interface ContextOptions {
  profileFlag?: string
  debug: boolean
  /** Longest total wait on 429s, in ms. */
  maxWaitMs: number
  oclifConfigDir: string
  oclifDataDir: string
  /** oclif's cache folder for till (TILL_CACHE_DIR moves it): the retiring-version warning's memory. */
  oclifCacheDir?: string
  version: string
  io?: IO
}

const isLoopback = (url: string) => isLoopbackHost(new URL(url).hostname)

export class Context {
  readonly io: IO
  readonly configDir: string
  /** till's data folder (TILL_DATA_DIR, or oclif's): the embedded emulator's data, the journals of bulk jobs. */
  readonly dataDir: string
  readonly emulatorDataDir: string
  private resolved?: ResolvedProfile
  private credentialPromise?: Promise<ResolvedProfile>
  /** The client once a command asked for it (the clock reads an emulator's time for tables only then). */
  clientPromise?: Promise<ApiClient>
  private customerPromise?: Promise<ApiClient>
  private connectionPromise?: Promise<{baseUrl: string; token?: string; credentialError?: unknown}>
  private closers: Array<() => Promise<void>> = []
  /**
   * Set by a command that is pointless against an emulator run inside it (listen, trigger: events reach
   * no other process): why, for the error given instead of starting one.
   */
  needsSharedEmulator?: string
  /** Set while a browser sign-in checks its new tokens: an error names that profile, not the one in use. */
  signingIn?: {name: string; environment: string; baseUrl: string}
  readonly clock = environmentClock(this) // the environment's time (an emulator's clock), read once when needed

  constructor(readonly options: ContextOptions) {
    this.io = options.io ?? processIO()
    this.configDir = configDir(options.oclifConfigDir)
    this.dataDir = process.env.TILL_DATA_DIR || options.oclifDataDir
    this.emulatorDataDir = join(this.dataDir, 'emulator')
  }

  get profile(): ResolvedProfile {
    this.resolved ??= resolveProfile({
      flag: this.options.profileFlag,
      env: process.env,
      config: readConfig(this.configDir),
      emulatorDataDir: this.emulatorDataDir,
    })
    return this.resolved
  }

  /** How long one request may take, to its answer's last byte (TILL_REQUEST_DEADLINE); the client's default when unset. */
  get requestDeadlineMs(): number | undefined {
    return requestDeadlineMs(process.env)
  }

  /**
   * The profile with its stored credential: read from the OS keyring, or (a token saved before till used the
   * keyring) moved there on first use (config/secrets.ts, loaded only here). TILL_TOKEN leaves both alone.
   */
  profileWithCredential(): Promise<ResolvedProfile> {
    this.credentialPromise ??= (async () => {
      const profile = this.profile
      if (profile.tokenSource === 'env') return profile
      const config = readConfig(this.configDir)
      if (!needsKeyring(config.profiles[profile.name])) return profile
      const {loadCredential} = await import('./config/secrets.js')
      await loadCredential(this, config, profile.name)
      this.resolved = resolveProfile({flag: this.options.profileFlag, env: process.env, config, emulatorDataDir: this.emulatorDataDir})
      return this.resolved
    })()
    return this.credentialPromise
  }

  debug(line: string): void {
    if (this.options.debug) this.io.stderr.write(`[debug] ${terminalLines(redact(line))}\n`)
  }

  /**
   * A note for the user on stderr (never stdout): a hint, a warning, progress. Names from the API or a file
   * in it are shown escaped (a terminal escape, a carriage return, U+202E never act on the terminal).
   */
  note(line: string): void {
    // a URL's password (TILL_API_URL=https://user:secret@...) is never shown; what else a note says is meant
    this.io.stderr.write(`${terminalLines(redactUrlCredentials(line))}\n`)
  }

  budgets(): Budget[] {
    const p = this.profile
    return [
      {name: 'minute', limit: p.rateLimit.limit, windowMs: p.rateLimit.windowMs},
      {name: 'ip', limit: PER_IP_BUDGET.limit, windowMs: PER_IP_BUDGET.windowMs},
    ]
  }

  client(): Promise<ApiClient> {
    this.clientPromise ??= this.connection().then(async ({baseUrl, token, credentialError}) => {
      const profile = this.profile
      if (credentialError) throw credentialError
      // the default data folder's token was looked for only by a profile that takes it (resolve-profile.ts)
      const lookedInData = profile.urlSource === 'default' || (profile.urlSource === 'profile' && profile.name === LOCAL_PROFILE)
      if (!token && profile.environment === 'local' && profile.tokenSource === 'none' && profile.tokenStore === null && lookedInData) {
        const {otherEmulatorData} = await import('../client/errors.js')
        throw otherEmulatorData(baseUrl, this.emulatorDataDir, 'has no token in')
      }
      if (!token) {
        throw new TillError(
          `profile "${profile.name}" (${profile.environment}) has no token`,
          ExitCode.auth,
          'sign in with: till auth login, or set TILL_TOKEN',
        )
      }
      // A browser sign-in's access token renews itself (before it expires, and once after a 401).
      const credentials = profile.oauth ? await this.oauthCredentials(baseUrl, profile.oauth) : undefined
      return this.newClient(baseUrl, credentials ? profile.oauth!.access_token : token, profile.name, credentials)
    })
    return this.clientPromise
  }

  /** The API base URL in use (the emulator run in-process for `local` when nothing answers). */
  async apiBaseUrl(): Promise<string> {
    return (await this.connection()).baseUrl
  }

  /** Renews the profile's OAuth tokens at `/v1/oauth2/token` and keeps the new ones where the old ones were. */
  private async oauthCredentials(baseUrl: string, tokens: OAuthTokens): Promise<TokenProvider> {
    const [{OAuthCredentials}, {requestToken}, {withLock}] = await Promise.all([
      import('../client/oauth.js'),
      import('../client/resources/oauth2.js'),
      import('../client/lockfile.js'),
    ])
    const name = this.profile.name
    const anonymous = await this.newClient(baseUrl, undefined, `${name}.oauth`)
    return new OAuthCredentials({
      tokens,
      requestToken: (form) => requestToken(anonymous, form),
      reload: async () => {
        const config = readConfig(this.configDir)
        const {loadCredential} = await import('./config/secrets.js')
        await loadCredential(this, config, name)
        return config.profiles[name]?.oauth
      },
      exclusive: (fn) => {
        mkdirSync(this.configDir, {recursive: true, mode: 0o700})
        return withLock(join(this.configDir, `.oauth-${name}.lock`), fn)
      },
      save: async (renewed) => {
        const {saveCredential} = await import('./config/secrets.js')
        await saveCredential(this, name, {oauth: renewed}, {renewal: true})
        this.debug(`renewed the access token of profile "${name}" (expires ${renewed.expires_at})`)
      },
      signInHint: `till auth login -p ${name} --web`,
    })
  }

  /** The customer access token in use by the portal client, once known (never written to disk). */
  customerToken?: string

  /**
   * A client for the Customer Portal API. Its token is TILL_CUSTOMER_TOKEN, or a customer session created
   * right now with the organization token for the customer given (`customer-sessions:create`); kept in memory only.
   */
  customerClient(as: {externalId?: string; customerId?: string; memberId?: string; memberExternalId?: string}): Promise<ApiClient> {
    this.customerPromise ??= (async () => {
      const {baseUrl} = await this.connection()
      let token = process.env.TILL_CUSTOMER_TOKEN
      if ((as.memberId || as.memberExternalId) && !(as.externalId || as.customerId)) {
        throw usageError('--as-member and --as-member-external-id name a member of the customer given by --as-customer or --as-customer-id')
      }
      if (as.externalId || as.customerId) {
        const org = await this.client()
        const member = as.memberId ? {member_id: as.memberId} : as.memberExternalId ? {external_member_id: as.memberExternalId} : {}
        const session = await org
          .post<{token: string; customer_id: string}>(
            '/customer-sessions/',
            as.customerId ? {customer_id: as.customerId, ...member} : {external_customer_id: as.externalId, ...member},
          )
          .catch((error: unknown) => {
            throw sessionRefused(error, as) ?? error
          })
        token = session.token
        this.debug(`created a customer session for customer ${session.customer_id}`)
      }
      if (!token) {
        throw usageError(
          'the portal acts for one customer, and none was given',
          'set TILL_CUSTOMER_TOKEN (see: till sessions create --token-only), or pass --as-customer EXTERNAL_ID or --as-customer-id ID',
        )
      }
      this.customerToken = token
      return this.newClient(baseUrl, token, `${this.profile.name}.customer`)
    })()
    return this.customerPromise
  }

  /** A client without a token, for the unauthenticated routes (license-key validate, activate, deactivate). */
  async anonymousClient(): Promise<ApiClient> {
    const {baseUrl} = await this.connection()
    return this.newClient(baseUrl, undefined, `${this.profile.name}.anonymous`)
  }

  /**
   * Base URL and organization token, running the emulator in-process for `local` when nothing answers. A
   * keyring that could not give the token fails only what needs it: the portal with TILL_CUSTOMER_TOKEN and
   * the routes without a token still run.
   */
  private connection(): Promise<{baseUrl: string; token?: string; credentialError?: unknown}> {
    this.connectionPromise ??= (async () => {
      let credentialError: unknown
      const profile = await this.profileWithCredential().catch((error: unknown) => {
        credentialError = error
        return this.profile
      })
      // Only the `local` profile itself, with no URL override, may fall back to an emulator run in-process:
      // any URL given by TILL_API_URL is used as it is, and an unreachable one is reported (exit 6).
      if (
        profile.environment === 'local' &&
        profile.urlSource !== 'env' &&
        isLoopback(profile.baseUrl) &&
        profile.tokenSource !== 'env' &&
        !(await answers(profile.baseUrl))
      ) {
        if (this.needsSharedEmulator) {
          throw new TillError(
            `nothing answers at ${profile.baseUrl}: ${this.needsSharedEmulator}`,
            ExitCode.unavailable,
            'start the emulator in another terminal and keep it running: till emulator start',
          )
        }
        // A profile with a URL or token of its own is for an emulator of its own: the embedded one serves the
        // default data folder, another store, and must not answer in its place.
        if (profile.urlSource === 'profile' || profile.tokenSource === 'profile' || profile.tokenSource === 'oauth') {
          const port = new URL(profile.baseUrl).port
          throw new TillError(
            `nothing answers at ${profile.baseUrl}, the URL of profile "${profile.name}" (local)`,
            ExitCode.unavailable,
            `start the emulator it is for, with the data folder it had: till emulator start --port ${port} --data FOLDER`,
          )
        }
        const embedded = await this.startEmbeddedEmulator(profile.baseUrl)
        return {baseUrl: embedded.url, token: embedded.token}
      }
      return {baseUrl: profile.baseUrl, token: profile.token, credentialError}
    })()
    return this.connectionPromise
  }

  /** A client for any base URL and token (sign-in checks), paced under `paceName`. */
  async newClient(baseUrl: string, token: string | undefined, paceName: string, credentials?: TokenProvider): Promise<ApiClient> {
    const profile = this.profile
    this.warnRetiringVersion()
    // A token never crosses the network in clear text: plain http only on loopback.
    if (token) assertSafeBaseUrl(baseUrl, profile.urlSource === 'env' ? 'TILL_API_URL' : `the URL of profile "${profile.name}"`)
    const [{ApiClient}, {Pacer}] = await Promise.all([import('../client/client.js'), import('../client/pace.js')])
    const pacer = new Pacer({
      statePath: join(this.configDir, 'pace', `${paceName}.json`),
      onWait: (ms, budget, others) => this.paced(ms, budget, others),
    })
    const client = new ApiClient({
      baseUrl,
      token,
      credentials,
      userAgent: `till/${this.options.version}`,
      apiVersion: profile.apiVersion,
      versionPin: versionPin(profile.apiVersion, profile.apiVersionSource, profile.name),
      budgets: this.budgets(),
      pacer,
      maxWaitMs: this.options.maxWaitMs,
      deadlineMs: this.requestDeadlineMs,
      label: `${profile.name}, ${profile.environment}${token ? '' : ', no token'}`,
      debug: this.options.debug ? (line) => this.debug(line) : undefined,
      onRateLimitWait: (seconds, own) => this.showRateLimitWait(seconds, own),
    })
    // Not closed when the command ends: a closed client waits a turn of the event loop for its sockets'
    // close events, a cost to a one-page command, and its idle connections never keep the process
    // alive (undici unrefs a socket with nothing in flight), so the exit ends them. A request still in
    // flight when a command fails holds the process until it is answered, as a close would wait for it.
    return client
  }

  /**
   * Set by a command that shows its own progress on stderr: told of each wait of a second or more (the
   * rate budget, the API's Retry-After), which it shows instead of the line the context writes.
   */
  waitShown?: (ms: number, why: string) => boolean

  /** When the last wait said on stderr ends: the concurrent requests held by the same wait say it once. */
  private saidUntil = 0

  /** A wait of the pacer: a line on stderr when it is a second or more (why it waits, whose requests), --debug any. */
  private paced(ms: number, budget: string, others: number): void {
    this.debug(`pacing: waiting ${ms}ms to stay within the ${budget} budget`)
    if (ms < 1000) return
    const why = budgetWaitReason(budget, this.profile, others)
    if (this.waitShown?.(ms, why)) return
    const now = Date.now()
    if (now < this.saidUntil) return
    this.saidUntil = now + ms
    this.note(`Waiting ${Math.ceil(ms / 1000)}s to stay within ${why}.`)
  }

  private versionWarned = false

  /** A version the service is removing: one line on stderr, at most once a day (remembered in the cache folder). */
  private warnRetiringVersion(): void {
    if (this.versionWarned) return
    this.versionWarned = true
    const {apiVersion, apiVersionSource, name} = this.profile
    const line = retiringVersionWarning(apiVersion, apiVersionSource, name)
    const cacheDir = process.env.TILL_CACHE_DIR || this.options.oclifCacheDir
    if (line && (!cacheDir || warningDue(cacheDir, apiVersion, new Date()))) this.note(line)
  }

  private async startEmbeddedEmulator(url: string): Promise<{url: string; token: string}> {
    const {startEmbedded} = await import('./embedded.js')
    const cacheDir = process.env.TILL_CACHE_DIR || this.options.oclifCacheDir
    const embedded = await startEmbedded({url, dataDir: this.emulatorDataDir, cacheDir, stdout: this.io.stdout, note: (l) => this.note(l)})
    this.closers.push(embedded.close)
    this.debug(`embedded emulator at ${embedded.url}`)
    return embedded
  }

  /** A countdown on a TTY, one line otherwise; stderr either way. */
  private async showRateLimitWait(seconds: number, own: boolean): Promise<void> {
    if (this.waitShown?.(seconds * 1000, own ? 'the API (Retry-After)' : 'the API (Retry-After, told to another till process)')) return
    if (!this.io.stderrIsTTY) {
      this.note(
        own
          ? `Rate limited by the API; waiting ${seconds}s as it asks (Retry-After).`
          : `Rate limited by the API (another till process of this profile was told to wait); waiting ${seconds}s.`,
      )
      return
    }
    const stderr = this.io.stderr
    const started = Date.now()
    const tick = () => {
      const left = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000))
      stderr.write(`\rRate limited by the API; retrying in ${left}s… `)
    }
    tick()
    const timer = setInterval(tick, 1000)
    setTimeout(() => {
      clearInterval(timer)
      stderr.write('\r\x1b[2K')
    }, seconds * 1000).unref()
    timer.unref()
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.closers.reverse().map((c) => c()))
  }
}
