import {BaseCommand} from '../../areas/command.js'
import {fishCompletion, type CompletionCommand} from '../../areas/completion/fish.js'

export default class AutocompleteFish extends BaseCommand {
  static override summary = 'Print the fish completion script: commands, flags and profile names.'
  static override description =
    `Completes topics and commands word by word as they are typed (till products list), each command's flags and their fixed values, and profile names after --profile or -p (asked of till when you press Tab). For bash and zsh, see: till autocomplete.`
  static override examples = ['<%= config.bin %> autocomplete fish > ~/.config/fish/completions/till.fish', '<%= config.bin %> autocomplete fish | source']

  async run(): Promise<void> {
    await this.parseWithGlobals(AutocompleteFish)
    const commands: CompletionCommand[] = this.config.commands
      .filter((c) => !c.hidden)
      .map((c) => ({
        id: c.id.replaceAll(':', ' '),
        summary: c.summary ?? c.description,
        flags: Object.entries(c.flags ?? {})
          .filter(([, f]) => !f.hidden)
          .map(([name, f]) => ({
            name,
            char: f.char,
            summary: f.summary ?? f.description,
            value: f.type === 'option',
            options: f.type === 'option' ? f.options : undefined,
          })),
      }))
    const topics = Object.fromEntries(this.config.topics.map((t) => [t.name.replaceAll(':', ' '), t.description]))
    this.ctx.io.stdout.write(fishCompletion(this.config.bin, commands, topics))
  }
}
