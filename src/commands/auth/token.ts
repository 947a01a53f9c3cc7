import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'

export default class AuthToken extends BaseCommand {
  static override summary = "Print the profile's token, for piping into another tool (never to a terminal)."
  static override description = 'Only when stdout is not a terminal (a pipe or a file), so a token is never shown on screen or kept in scrollback by accident.'
  static override examples = ['<%= config.bin %> <%= command.id %> | other-tool --token-stdin', '<%= config.bin %> <%= command.id %> -p sandbox > token.txt']
  // Once required; still accepted so older scripts keep working.
  static override flags = {
    'show-token': Flags.boolean({description: 'Accepted for older scripts; the token is printed into a pipe or file without it.', hidden: true}),
  }

  async run(): Promise<void> {
    await this.parseWithGlobals(AuthToken)
    if (this.ctx.io.stdoutIsTTY)
      throw usageError(
        'refusing to print a token to a terminal',
        'pipe it into the program that needs it, e.g.: till auth token | other-tool, or redirect it to a file',
      )
    const token = await (await this.ctx.client()).bearerToken()
    if (!token) throw new TillError(`profile "${this.ctx.profile.name}" has no token`, ExitCode.auth, 'sign in with: till auth login')
    this.ctx.io.stdout.write(`${token}\n`)
  }
}
