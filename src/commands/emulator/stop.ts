import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {readRunning, stillRunning} from '../../areas/emulator/running.js'
import {dataFlag, emulatorDataDir} from '../../cli/emulator-flags.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export default class EmulatorStop extends BaseCommand {
  static override summary =
    'Stop the emulator that till emulator start keeps running on a data folder (SIGTERM), and wait for it to exit; exits 1 when none runs.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --data ./emulator-data']
  static override flags = {
    data: dataFlag,
    wait: Flags.integer({description: 'Longest time in seconds to wait for it to exit (then exit 1).', default: 30, min: 1}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EmulatorStop)
    const dataDir = emulatorDataDir(flags.data, this.config.dataDir)
    const running = readRunning(dataDir)
    if (!running) throw new TillError(`no emulator runs on the data folder ${dataDir}`, ExitCode.error, 'start one: till emulator start')
    process.kill(running.pid, 'SIGTERM')
    // it saves its stores and closes its servers before it exits
    const deadline = Date.now() + flags.wait * 1000
    while (stillRunning(running.pid)) {
      if (Date.now() > deadline)
        throw new TillError(
          `the emulator (pid ${running.pid}) did not exit within ${flags.wait} s`,
          ExitCode.error,
          `see where it runs, or: kill ${running.pid}`,
        )
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    this.ctx.note(`Stopped the emulator (pid ${running.pid}) of ${dataDir}.`)
  }
}
