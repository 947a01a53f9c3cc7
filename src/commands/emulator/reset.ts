import {BaseCommand} from '../../areas/command.js'
import {dataFlag, emulatorDataDir} from '../../cli/emulator-flags.js'

export default class EmulatorReset extends BaseCommand {
  static override summary = "Restore the emulator's seeded state (organizations and tokens are kept)."

  static override description =
    'Seeds both environments of the data folder again with the sizes they were created with. A running emulator on the same folder picks the change up on its next request.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --data /tmp/till-bench']

  static override flags = {data: dataFlag}

  async run(): Promise<void> {
    const {flags} = await this.parse(EmulatorReset)
    const dataDir = emulatorDataDir(flags.data, this.config.dataDir)
    const {resetStores} = await import('../../emulator/index.js')
    resetStores(dataDir, Date.now())
    process.stderr.write(`Reset the emulator data in ${dataDir}\n`)
  }
}
