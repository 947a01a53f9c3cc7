// `till auth login --web`: the flags, showing or opening the authorize page, the sign-in itself, the
// organization and the profile written (mode 0600; tokens never shown).
import {Flags} from '@oclif/core'

import {EMULATOR_CLIENT_ID} from '../../client/oauth.js'
import {isLoopbackHost} from '../../client/origin.js'
import {MAX_TIMER_SECONDS} from '../../client/timer.js'
import {usageError} from '../../client/till-error.js'
import type {Context} from '../../cli/context.js'
import {activeSentence, readConfig, type Environment} from '../../cli/config/profiles.js'
import {canOpenBrowser, openUrl} from '../../cli/open.js'
import type {Prompter} from '../../cli/prompt.js'
import {pickOrganization} from './organization.js'
import {webLogin} from './web-login.js'

export const WEB_FLAGS = {
  web: Flags.boolean({
    allowNo: true,
    description:
      'Sign in through the browser (default on a terminal without --token-stdin when an OAuth2 client is configured); --no-web asks for a token instead.',
  }),
  browser: Flags.boolean({allowNo: true, default: true, description: 'Open the authorize page in the browser; --no-browser only prints its URL.'}),
  'client-id': Flags.string({
    description: "The public OAuth2 client to sign in with (polar_ci_...); kept in the profile. Default: the profile's, or the emulator's built-in one.",
  }),
  organization: Flags.string({description: 'Organization id or slug to work on, when the user has several (asked on a terminal).'}),
  port: Flags.integer({min: 0, max: 65_535, default: 0, description: 'Loopback port for the redirect (0: any free port); the client must allow it.'}),
  // a timer's delay: past MAX_TIMER_SECONDS it would fire at once
  timeout: Flags.integer({min: 1, max: MAX_TIMER_SECONDS, default: 300, description: 'Seconds to wait for the answer from the browser.'}),
}

export interface BrowserSignIn {
  ctx: Context
  prompter: Prompter
  environment: Environment
  name: string
  baseUrl: string
  /** Whether the URL was given (--url) and is kept in the profile. */
  customUrl: boolean
  flags: {browser: boolean; 'client-id'?: string; organization?: string; port: number; timeout: number; 'insecure-storage'?: boolean}
}

/**
 * The OAuth2 client a browser sign-in would use: --client-id, the profile's, or the emulator's built-in one
 * on a loopback URL; undefined when none is configured (production and sandbox have no default client).
 */
export function oauthClientId(ctx: Context, name: string, baseUrl: string, flag: string | undefined): string | undefined {
  const stored = readConfig(ctx.configDir).profiles[name]
  return flag ?? stored?.oauth_client_id ?? (isLoopbackHost(new URL(baseUrl).hostname) ? EMULATOR_CLIENT_ID : undefined)
}

export async function signInWithBrowser(s: BrowserSignIn): Promise<void> {
  const {ctx, flags} = s
  const clientId = oauthClientId(ctx, s.name, s.baseUrl, flags['client-id'])
  if (!clientId) {
    throw usageError(
      `no OAuth2 client to sign in to ${s.environment} with; nothing was saved`,
      `sign in with an organization access token instead (--no-web, or pipe it with --token-stdin), or pass the id of a public client registered with the service: --client-id polar_ci_... (kept in the profile; register one with: till oauth2-clients create --public)`,
    )
  }
  if (!/^polar_ci_\S+$/.test(clientId)) throw usageError(`--client-id is not an OAuth2 client id: "${clientId}"`, 'client ids start with polar_ci_')
  const anonymous = await ctx.newClient(s.baseUrl, undefined, `${s.name}.oauth`)
  const tokens = await webLogin({
    baseUrl: s.baseUrl,
    clientId,
    anonymous,
    port: flags.port,
    timeoutMs: flags.timeout * 1000,
    show: async (url) => {
      ctx.note(`Sign in to ${s.environment} on this page (it lists what till asks to do):\n  ${url}`)
      const opened = flags.browser && canOpenBrowser() && (await openUrl(url))
      ctx.note(
        opened
          ? 'Opened it in your browser; waiting for the answer (Ctrl-C to stop)…'
          : 'Open it in a browser on this machine; waiting for the answer (Ctrl-C to stop)…',
      )
    },
  })
  const client = await ctx.newClient(s.baseUrl, tokens.access_token, s.name)
  ctx.signingIn = {name: s.name, environment: s.environment, baseUrl: s.baseUrl}
  const org = await pickOrganization(client, flags.organization, s.prompter)
  ctx.signingIn = undefined
  let previous: string | undefined
  const {saveCredential} = await import('../../cli/config/secrets.js')
  await saveCredential(
    ctx,
    s.name,
    {oauth: tokens},
    {
      insecure: flags['insecure-storage'],
      change: (c) => {
        previous = c.active
        c.profiles[s.name] = {
          ...c.profiles[s.name],
          environment: s.environment,
          base_url: s.customUrl ? s.baseUrl : undefined,
          oauth_client_id: clientId,
          organization_id: org.id,
        }
        c.active = s.name
      },
    },
  )
  const granted = tokens.scope.split(' ').filter(Boolean)
  ctx.note(
    `Signed in to ${s.environment} through the browser as organization ${org.name} (${org.id}), ${granted.length} scopes; its access token renews itself. ${activeSentence(previous, s.name)}`,
  )
  // The operation tables are read only here, not by every `auth login`.
  const {missingScopes, refusedTopics} = await import('../../client/scopes.js')
  const missing = missingScopes(granted)
  if (missing.length > 0)
    ctx.note(
      `Warning: the sign-in was not granted ${missing.join(', ')}; these will be refused: ${refusedTopics(granted).join(', ')}. See: till auth status -p ${s.name}`,
    )
}
