import {BaseCommand} from '../../areas/command.js'
import {completionCommands, completionTopics} from '../../areas/completion/commands.js'
import {fishCompletion} from '../../areas/completion/fish.js'

export default class AutocompleteFish extends BaseCommand {
  static override summary = 'Print the fish completion script: commands, flags and profile names.'
  static override description =
    `Completes topics and commands word by word as they are typed (till products list), each command's flags and their fixed values, and profile names after --profile or -p (asked of till when you press Tab). For bash and zsh, see: till autocomplete.`
  static override examples = ['<%= config.bin %> autocomplete fish > ~/.config/fish/completions/till.fish', '<%= config.bin %> autocomplete fish | source']

  async run(): Promise<void> {
    await this.parseWithGlobals(AutocompleteFish)
    this.ctx.io.stdout.write(fishCompletion(this.config.bin, completionCommands(this.config), completionTopics(this.config)))
  }
}
