import {BaseCommand} from '../../../areas/command.js'
import {controlPost, requireEmulator} from '../../../areas/emulator/control.js'
import {clockLine, type ClockState} from '../../../areas/emulator/summaries.js'

export default class EmulatorClockReset extends BaseCommand {
  static override summary = "Put the emulator environment's clock back on the wall clock."
  static override description =
    "Refused when the clock has settled things past the wall clock's time (going back would undo them): till emulator reset seeds the emulator again and puts the clocks back with it. Prints one line; --json prints the clock's state."
  static override examples = ['<%= config.bin %> <%= command.id %>']
  static override enableJsonFlag = true

  async run(): Promise<void> {
    await this.parseWithGlobals(EmulatorClockReset)
    requireEmulator(this.ctx.profile)
    const clock = await controlPost<ClockState>(await this.ctx.client(), '/clock/reset')
    this.ctx.io.stdout.write(this.jsonEnabled() ? `${JSON.stringify(clock, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${clockLine(clock)}\n`)
  }
}
