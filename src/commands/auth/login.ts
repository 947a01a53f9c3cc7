import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {oauthClientId, signInWithBrowser, WEB_FLAGS} from '../../areas/auth/browser.js'
import {activeSentence, DEFAULT_URLS, readConfig, validProfileName} from '../../cli/config/profiles.js'
import {readToken} from '../../cli/config/token-input.js'
import {verifyToken} from '../../cli/config/verify.js'
import {usageError} from '../../client/till-error.js'
import {DeclinedError} from '../../cli/prompt.js'
import {assertSafeBaseUrl} from '../../client/origin.js'

export default class AuthLogin extends BaseCommand {
  static override summary =
    'Sign in through the browser (OAuth2), or with an organization access token; store it as a profile and make it the active one (saying which it replaces).'
  static override description =
    `With --web (the default on a terminal unless --token-stdin is given, when the profile has an OAuth2 client: the emulator's built-in one, or --client-id) till opens the service's authorize page in the browser (it prints the URL when it cannot open one, e.g. over SSH), listens on a loopback port for the answer, checks its state and exchanges the code with a PKCE verifier. The access and refresh tokens are kept in the OS keyring (never shown); the access token renews itself. The OAuth client is --client-id, kept in the profile (the local emulator has one built in).
Otherwise give an organization access token, created in the organization's settings (separately for production and sandbox): it is read from a hidden prompt (--no-web, or on a terminal when no OAuth2 client is configured, as for production and sandbox on a fresh install), or from stdin with --token-stdin, never from the command line. till checks it against the API and shows the organization before saving it.
Tokens are kept in the OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux); where none answers (no D-Bus session, a locked keyring: a few seconds at most), in the config file (mode 0600), said once on stderr. --insecure-storage chooses the file.`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {
      description: 'Print the authorize URL instead of opening a browser (open it where 127.0.0.1 is this machine, e.g. through an SSH port forward)',
      command: '<%= config.bin %> <%= command.id %> --web --no-browser --environment sandbox --client-id polar_ci_...',
    },
    {description: 'In a script, from a secret store', command: 'pass polar/sandbox | <%= config.bin %> <%= command.id %> --environment sandbox --token-stdin'},
    {
      description: 'A second production organization under its own profile name',
      command: '<%= config.bin %> <%= command.id %> --environment production --name acme-prod',
    },
  ]

  /** Only so that a token typed as an argument is refused without being echoed (see the base command). */
  static override args = {token: Args.string({hidden: true, ignoreStdin: true, description: 'Never a token: use the prompt or --token-stdin.'})}
  static override flags = {
    environment: Flags.option({
      char: 'e',
      options: ['production', 'sandbox'] as const,
      description: 'Environment the token belongs to (asked on a terminal).',
    })(),
    'token-stdin': Flags.boolean({description: 'Read the token from stdin.'}),
    name: Flags.string({description: 'Profile name (default: the environment name).'}),
    url: Flags.string({description: "Base URL, when it is not the environment's default.", hidden: false}),
    force: Flags.boolean({description: "Save the token even if the API does not accept it now, or the URL is the other environment's."}),
    'insecure-storage': Flags.boolean({description: 'Keep the token in the config file (mode 0600) instead of the OS keyring.'}),
    ...WEB_FLAGS,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(AuthLogin)
    if (args.token !== undefined) {
      throw usageError(
        'a token is never taken as an argument (it would stay in the shell history); it was not used or shown',
        'type it at the prompt, or pipe it: pass polar/prod | till auth login --token-stdin',
      )
    }
    const config = readConfig(this.ctx.configDir) // a damaged config is reported before anything is asked
    // Signing in again to a profile (--name, or --profile) keeps its environment and URL unless told otherwise.
    const again = config.profiles[flags.name ?? flags.profile ?? '']
    const known = again && again.environment !== 'local' ? again : undefined
    const environment =
      flags.environment ??
      (known?.environment as 'production' | 'sandbox' | undefined) ??
      ((await this.prompter.select('--environment', 'Environment of the token', async () => [
        {name: 'production (real customers and payments)', value: 'production'},
        {name: 'sandbox (testing)', value: 'sandbox'},
      ])) as 'production' | 'sandbox')
    const name = flags.name ?? (known ? (flags.profile as string) : environment)
    if (!validProfileName(name)) throw usageError(`"${name}" is not a valid profile name`, 'use letters, digits, ".", "_" and "-"')
    const keptUrl = known && known.environment === environment ? known.base_url : undefined
    const baseUrl = (flags.url ?? keptUrl ?? DEFAULT_URLS[environment]).replace(/\/+$/, '')
    if (!/^https?:\/\/\S+$/.test(baseUrl)) throw usageError(`--url is not a URL: "${flags.url}"`)
    assertSafeBaseUrl(baseUrl, '--url')
    await this.checkUrlMatches(environment, baseUrl, flags.force)
    if (flags.web && flags['token-stdin'])
      throw usageError(
        '--web and --token-stdin do not go together',
        'sign in through the browser (--web), or pipe an organization access token (--token-stdin)',
      )
    if (flags.web ?? (!flags['token-stdin'] && this.prompter.interactive)) {
      // The browser is only the default when there is a client to sign in with: production and sandbox have none
      // built in, so without --client-id (or one kept in the profile) the hidden token prompt is the way in.
      if (flags.web || oauthClientId(this.ctx, name, baseUrl, flags['client-id'])) {
        await signInWithBrowser({ctx: this.ctx, prompter: this.prompter, environment, name, baseUrl, customUrl: Boolean(flags.url ?? keptUrl), flags})
        return
      }
      this.ctx.note(
        `No OAuth2 client is configured for ${environment}, so till asks for an organization access token instead (--no-web does so at once; --web --client-id polar_ci_... signs in through the browser).`,
      )
    }
    const token = await readToken(this.ctx.io, {fromStdin: flags['token-stdin'], message: `Organization access token (${environment}):`})
    if (!token.startsWith('polar_oat_')) {
      this.ctx.note(`Warning: this does not look like an organization access token (they start with polar_oat_); Core commands need one.`)
    }
    const org = await verifyToken(this.ctx, {baseUrl, token, environment, name, force: flags.force, forceFlag: '--force'})
    let previous: string | undefined
    const {saveCredential} = await import('../../cli/config/secrets.js')
    await saveCredential(
      this.ctx,
      name,
      {token},
      {
        insecure: flags['insecure-storage'],
        change: (c) => {
          previous = c.active
          c.profiles[name] = {
            ...c.profiles[name],
            environment,
            ...((flags.url ?? keptUrl) ? {base_url: baseUrl} : {base_url: undefined}),
            organization_id: org?.id,
          }
          c.active = name
        },
      },
    )
    const who = org ? `organization ${org.name} (${org.id})` : 'an unverified token'
    this.ctx.note(`Signed in to ${environment} as ${who}. ${activeSentence(previous, name)}`)
  }

  /** A production profile on the sandbox URL, or the reverse, is most likely a mistake: warn, and ask (or need --force). */
  private async checkUrlMatches(environment: 'production' | 'sandbox', baseUrl: string, force: boolean): Promise<void> {
    const other = environment === 'production' ? 'sandbox' : 'production'
    if (new URL(baseUrl).host !== new URL(DEFAULT_URLS[other]).host) return
    const problem = `${baseUrl} is the ${other} URL, but the profile is for ${environment}`
    if (!force && !this.prompter.interactive)
      throw usageError(`${problem}; nothing was saved`, `use --environment ${other}, or pass --force if this is really meant`)
    this.ctx.note(`Warning: ${problem}.`)
    if (force) return
    const {confirm} = await import('@inquirer/prompts')
    if (!(await confirm({message: `Save a ${environment} profile with the ${other} URL?`, default: false}))) {
      throw new DeclinedError('nothing was saved')
    }
  }
}
