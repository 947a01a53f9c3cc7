import {BaseCommand} from '../../../areas/command.js'
import {controlUrl, requireEmulator} from '../../../areas/emulator/control.js'
import {clockLine, type ClockState} from '../../../areas/emulator/summaries.js'

export default class EmulatorClock extends BaseCommand {
  static override summary = "Show the emulator environment's time: its clock, which till emulator clock advance moves."
  static override description =
    "Each environment of the emulator (production, sandbox) has its own clock, kept in its store: it runs with the wall clock, ahead by what till emulator clock advance moved it. Every object's timestamps and every event's timestamp read it. Prints one line; --json prints the clock's state."
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: "The emulator sandbox's clock, through a profile on its address", command: '<%= config.bin %> <%= command.id %> --profile sandbox'},
  ]
  static override enableJsonFlag = true

  async run(): Promise<void> {
    await this.parseWithGlobals(EmulatorClock)
    requireEmulator(this.ctx.profile)
    const client = await this.ctx.client()
    const clock = await client.get<ClockState>(controlUrl(client.baseUrl, '/clock'))
    this.ctx.io.stdout.write(this.jsonEnabled() ? `${JSON.stringify(clock, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${clockLine(clock)}\n`)
  }
}
