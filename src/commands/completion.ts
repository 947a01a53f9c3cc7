import {Args} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'
import {completionScript, SHELLS} from '../areas/completion/scripts.js'

export default class Completion extends BaseCommand {
  static override summary = 'Print the completion script of a shell (bash, zsh or fish): commands, flags, their values and profile names.'
  static override description =
    "Nothing is written: the script is printed, to be sourced from the shell's startup file, so that it needs no cache (till autocomplete sets up the same completion through oclif's cache). It completes topics and commands word by word, each command's flags and their fixed values, global flags before the command, and profile names after --profile or -p (asked of till when you press Tab)."
  static override examples = [
    {description: 'bash: in ~/.bashrc', command: 'source <(<%= config.bin %> <%= command.id %> bash)'},
    {description: 'zsh: in ~/.zshrc', command: 'source <(<%= config.bin %> <%= command.id %> zsh)'},
    {description: 'fish', command: '<%= config.bin %> <%= command.id %> fish > ~/.config/fish/completions/till.fish'},
  ]
  static override args = {
    shell: Args.string({required: true, options: [...SHELLS], description: 'The shell: bash, zsh or fish.'}),
  }

  async run(): Promise<void> {
    const {args} = await this.parseWithGlobals(Completion)
    this.ctx.io.stdout.write(completionScript(args.shell as (typeof SHELLS)[number], this.config))
  }
}
