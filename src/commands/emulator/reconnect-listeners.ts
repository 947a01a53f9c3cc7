import {BaseCommand} from '../../areas/command.js'
import {controlPost, requireEmulator} from '../../areas/emulator/control.js'

export default class EmulatorReconnectListeners extends BaseCommand {
  static override summary = 'Ask every till listen connected to the emulator to reconnect, as the service does every 10 minutes.'
  static override description =
    "Uses the emulator's control surface (outside /v1): each open listen stream gets the reconnect message and is closed; listeners connect again at once. Prints how many were asked."
  static override examples = ['<%= config.bin %> <%= command.id %>']

  async run(): Promise<void> {
    await this.parseWithGlobals(EmulatorReconnectListeners)
    requireEmulator(this.ctx.profile)
    const {reconnected} = await controlPost<{reconnected: number}>(await this.ctx.client(), '/listeners/reconnect')
    this.ctx.io.stdout.write(`${reconnected}\n`)
  }
}
