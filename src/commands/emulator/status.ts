import {BaseCommand} from '../../areas/command.js'
import {readRunning} from '../../areas/emulator/running.js'
import {dataFlag, emulatorDataDir} from '../../cli/emulator-flags.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export default class EmulatorStatus extends BaseCommand {
  static override summary =
    'Show the emulator that till emulator start keeps running on a data folder: its URLs, process id and data folder; exits 1 when none runs.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --data ./emulator-data --json']
  static override flags = {data: dataFlag}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EmulatorStatus)
    const dataDir = emulatorDataDir(flags.data, this.config.dataDir)
    const running = readRunning(dataDir)
    if (!running) throw new TillError(`no emulator runs on the data folder ${dataDir}`, ExitCode.error, 'start one: till emulator start')
    if (flags.json) {
      this.ctx.io.stdout.write(`${JSON.stringify(running)}\n`)
      return
    }
    const lines = [
      `till emulator is running (pid ${running.pid}, since ${running.started_at})`,
      `  data       ${running.data}`,
      ...Object.entries(running.environments).map(([name, env]) => `  ${name.padEnd(10)} ${env.url}`),
    ]
    this.ctx.io.stdout.write(`${lines.join('\n')}\n`)
  }
}
