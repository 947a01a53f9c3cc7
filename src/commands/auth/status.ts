import {Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {toTillError} from '../../client/errors.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {PER_IP_BUDGET, type ResolvedProfile} from '../../cli/context.js'
import {ruleText} from '../../client/rate-limit.js'
import {maskToken} from '../../client/redact.js'
import {missingScopes, refusedTopics} from '../../client/scopes.js'
import {readConfig} from '../../cli/config/profiles.js'
import {introspectToken, userinfo} from '../../client/resources/oauth2.js'

/** Where the token in use lives: the OS keyring, the config file, the environment (TILL_TOKEN), the emulator's data. */
function tokenStore(p: ResolvedProfile, token: string | undefined): 'keyring' | 'file' | 'environment' | 'emulator' | null {
  if (p.tokenSource === 'env') return 'environment'
  if (p.tokenStore) return p.tokenStore
  return token ? 'emulator' : null
}

export default class AuthStatus extends BaseCommand {
  static override summary =
    "Show who till is signed in as: profile, environment, organization, kind of credential, token (masked) and where it is kept (OS keyring or config file), scopes (and those missing for till's commands) and expiry, whether it works."
  static override description =
    "The credential is an organization access token, or a browser sign-in (OAuth2) whose scopes and access-token expiry are shown (checking it may renew the access token), with the scopes till's commands need that it was not granted and the topics (or commands) that will be refused for want of them (missing_scopes and failing under --json). Exits 4 when the profile cannot be used (no token, the API refuses it, or the sign-in could not be renewed), so scripts can check before they start.\n\n--introspect (a browser sign-in only) also asks the service about the access token itself (RFC 7662 introspection: active, scopes, subject, expiry) and who signed in (OpenID Connect userinfo), under introspection and user."
  static override enableJsonFlag = true
  // `till status`: the profile, the environment and the organization in use, as gh and the Stripe CLI users look for them
  static override aliases = ['status']
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --profile sandbox --json',
    {description: "What the service knows of a browser sign-in's token", command: '<%= config.bin %> <%= command.id %> --introspect --json'},
  ]
  static override flags = {
    ...outputFlags,
    introspect: Flags.boolean({description: "Also show the service's introspection of a browser sign-in's token and the signed-in user (OAuth2)."}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(AuthStatus)
    let p = this.ctx.profile
    let organization: {id: string; name: string} | undefined
    let problem: TillError | undefined
    // The local profile's token may come from an emulator started for this command: show that one.
    let token = p.token
    try {
      const client = await this.ctx.client()
      token = await client.bearerToken()
      organization = (await client.get<{items: Array<{id: string; name: string}>}>('/organizations/')).items[0]
      token = await client.bearerToken()
    } catch (error) {
      problem = toTillError(error, this.errorContext())
    }
    p = this.ctx.profile // with the credential read from the OS keyring, when it is there
    const stored = readConfig(this.ctx.configDir)
    // A browser sign-in as it stands now (checking it may have renewed it).
    let oauth = p.oauth ? (stored.profiles[p.name]?.oauth ?? p.oauth) : undefined
    if (oauth && p.tokenStore === 'keyring' && token !== oauth.access_token) {
      const {loadCredential} = await import('../../cli/config/secrets.js')
      oauth = await loadCredential(this.ctx, stored, p.name).then(
        () => stored.profiles[p.name]?.oauth ?? oauth,
        () => oauth,
      )
    }
    // What the sign-in was granted, against what till's commands need (known for browser sign-ins only).
    const granted = oauth ? oauth.scope.split(/\s+/).filter(Boolean) : undefined
    const missing = granted ? missingScopes(granted) : undefined
    let introspection: Record<string, unknown> | undefined
    if (flags.introspect) {
      if (!oauth)
        throw usageError(
          '--introspect needs a browser sign-in (OAuth2): an organization access token cannot be introspected',
          `sign in with: till auth login -p ${p.name} --web`,
        )
      if (!problem) {
        const client = await this.ctx.client()
        const [answer, user] = await Promise.all([introspectToken(client, {token: oauth.access_token, client_id: oauth.client_id}), userinfo(client)])
        introspection = {introspection: answer, user}
      }
    }
    const failing = granted ? refusedTopics(granted) : undefined
    await this.writeOne(
      'auth-status',
      {
        profile: p.name,
        environment: p.environment,
        base_url: p.baseUrl,
        organization: organization ? `${organization.name} (${organization.id})` : null,
        credential: oauth
          ? 'browser sign-in (OAuth2)'
          : !token
            ? null
            : token.startsWith('polar_oat_')
              ? 'organization access token'
              : token.startsWith('polar_cst_')
                ? 'customer session token'
                : 'token',
        token: token ? maskToken(oauth?.access_token ?? token) : null,
        token_source: p.tokenSource === 'none' && token ? 'emulator' : p.tokenSource,
        token_store: tokenStore(p, token),
        token_store_reason: p.tokenSource !== 'env' && p.tokenStore === 'file' ? (stored.profiles[p.name]?.token_store_reason ?? null) : null,
        scopes: oauth ? oauth.scope : token?.startsWith('polar_oat_') ? "the token's (chosen when it was created)" : null,
        missing_scopes: missing ?? null,
        failing: failing ?? null,
        expires_at: oauth ? oauth.expires_at : null,
        refreshable: oauth ? Boolean(oauth.refresh_token) : null,
        oauth_client_id: oauth ? oauth.client_id : null,
        works: problem ? `no: ${problem.message}` : 'yes',
        rate_budget: `${ruleText(p.rateLimit)} (${p.rateLimitSource}), ${ruleText(PER_IP_BUDGET)} per IP`,
        ...introspection,
      },
      flags,
    )
    if (missing && failing) {
      this.ctx.note(
        missing.length === 0 && failing.length === 0
          ? "This sign-in holds every scope till's commands need."
          : `This sign-in lacks ${missing.length === 1 ? 'the scope' : 'the scopes'} ${missing.join(', ')}; these will be refused: ${failing.join(', ') || 'none (each command has another scope it takes)'}. Grant ${missing.length === 1 ? 'it' : 'them'} by signing in again: till auth login -p ${p.name} --web`,
      )
    }
    // The exit code says why: 4 only for a credential the service refused, 6 when it could not be reached.
    if (problem)
      throw new TillError(
        `profile "${p.name}" cannot be used: ${problem.message}`,
        problem.exitCode === ExitCode.error ? ExitCode.auth : problem.exitCode,
        problem.hint,
      )
  }
}
