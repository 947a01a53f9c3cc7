import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'

export default class AuthToken extends BaseCommand {
  static override summary = "Print the profile's token, for piping into another tool (never to a terminal)."
  static override description = 'Only when stdout is not a terminal, and only with --show-token, so a token is never shown on screen or kept in scrollback by accident.'
  static override examples = ['<%= config.bin %> <%= command.id %> --show-token | other-tool --token-stdin']
  static override flags = {'show-token': Flags.boolean({description: 'Really print the token.'})}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(AuthToken)
    if (!flags['show-token']) throw usageError('pass --show-token to print the token', 'it prints only into a pipe or file, e.g.: till auth token --show-token | other-tool')
    if (this.ctx.io.stdoutIsTTY) throw usageError('refusing to print a token to a terminal', 'pipe it into the program that needs it, or redirect it to a file')
    const token = (await this.ctx.client()).options.token
    if (!token) throw new TillError(`profile "${this.ctx.profile.name}" has no token`, ExitCode.auth, 'sign in with: till auth login')
    this.ctx.io.stdout.write(`${token}\n`)
  }
}
