import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {DEFAULT_URLS, readConfig, updateConfig, validProfileName} from '../../cli/config/profiles.js'
import {readToken} from '../../cli/config/token-input.js'
import {verifyToken} from '../../cli/config/verify.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {assertSafeBaseUrl} from '../../client/origin.js'

export default class AuthLogin extends BaseCommand {
  static override summary = 'Sign in with an organization access token: verify it, store it as a profile, make it active.'
  static override description = `Create the token in the organization's settings (separately for production and sandbox). It is read from a hidden prompt, or from stdin with --token-stdin, never from the command line. till checks it against the API and shows the organization before saving it (mode 0600).`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'In a script, from a secret store', command: 'pass polar/sandbox | <%= config.bin %> <%= command.id %> --environment sandbox --token-stdin'},
    {description: 'A second production organization under its own profile name', command: '<%= config.bin %> <%= command.id %> --environment production --name acme-prod'},
  ]

  /** Only so that a token typed as an argument is refused without being echoed (see the base command). */
  static override args = {token: Args.string({hidden: true, ignoreStdin: true, description: 'Never a token: use the prompt or --token-stdin.'})}
  static override flags = {
    environment: Flags.option({char: 'e', options: ['production', 'sandbox'] as const, description: 'Environment the token belongs to (asked on a terminal).'})(),
    'token-stdin': Flags.boolean({description: 'Read the token from stdin.'}),
    name: Flags.string({description: 'Profile name (default: the environment name).'}),
    url: Flags.string({description: "Base URL, when it is not the environment's default.", hidden: false}),
    force: Flags.boolean({description: 'Save the token even if the API does not accept it now, or the URL is the other environment\'s.'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(AuthLogin)
    if (args.token !== undefined) {
      throw usageError('a token is never taken as an argument (it would stay in the shell history); it was not used or shown', 'type it at the prompt, or pipe it: pass polar/prod | till auth login --token-stdin')
    }
    readConfig(this.ctx.configDir) // a damaged config is reported before anything is asked
    const environment = flags.environment ?? ((await this.prompter.select('--environment', 'Environment of the token', async () => [
      {name: 'production (real customers and payments)', value: 'production'},
      {name: 'sandbox (testing)', value: 'sandbox'},
    ])) as 'production' | 'sandbox')
    const name = flags.name ?? environment
    if (!validProfileName(name)) throw usageError(`"${name}" is not a valid profile name`, 'use letters, digits, ".", "_" and "-"')
    const baseUrl = (flags.url ?? DEFAULT_URLS[environment]).replace(/\/+$/, '')
    if (!/^https?:\/\/\S+$/.test(baseUrl)) throw usageError(`--url is not a URL: "${flags.url}"`)
    assertSafeBaseUrl(baseUrl, '--url')
    await this.checkUrlMatches(environment, baseUrl, flags.force)
    const token = await readToken(this.ctx.io, {fromStdin: flags['token-stdin'], message: `Organization access token (${environment}):`})
    if (!token.startsWith('polar_oat_')) {
      this.ctx.note(`Warning: this does not look like an organization access token (they start with polar_oat_); Core commands need one.`)
    }
    const org = await verifyToken(this.ctx, {baseUrl, token, environment, name, force: flags.force, forceFlag: '--force'})
    await updateConfig(this.ctx.configDir, (c) => {
      c.profiles[name] = {...c.profiles[name], environment, token, ...(flags.url ? {base_url: baseUrl} : {base_url: undefined}), organization_id: org?.id}
      c.active = name
    })
    const who = org ? `organization ${org.name} (${org.id})` : 'an unverified token'
    this.ctx.note(`Signed in to ${environment} as ${who}. Profile "${name}" is active.`)
  }

  /** A production profile on the sandbox URL, or the reverse, is most likely a mistake: warn, and ask (or need --force). */
  private async checkUrlMatches(environment: 'production' | 'sandbox', baseUrl: string, force: boolean): Promise<void> {
    const other = environment === 'production' ? 'sandbox' : 'production'
    if (new URL(baseUrl).host !== new URL(DEFAULT_URLS[other]).host) return
    const problem = `${baseUrl} is the ${other} URL, but the profile is for ${environment}`
    if (!force && !this.prompter.interactive) throw usageError(`${problem}; nothing was saved`, `use --environment ${other}, or pass --force if this is really meant`)
    this.ctx.note(`Warning: ${problem}.`)
    if (force) return
    const {confirm} = await import('@inquirer/prompts')
    if (!(await confirm({message: `Save a ${environment} profile with the ${other} URL?`, default: false}))) {
      throw new TillError('cancelled; nothing was saved', ExitCode.error)
    }
  }
}
