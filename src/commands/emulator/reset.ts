import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {dataFlag, emulatorDataDir} from '../../cli/emulator-flags.js'

export default class EmulatorReset extends BaseCommand {
  static override summary = "Restore the emulator's seeded state (organizations and tokens are kept)."

  static override description =
    'Seeds both environments of the data folder again with the sizes they were created with: every object made since is lost. ' +
    'Asks first on a terminal; --yes is needed without one. A running emulator on the same folder picks the change up on its next request.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --yes --data /tmp/till-bench']

  static override flags = {
    data: dataFlag,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EmulatorReset)
    const dataDir = emulatorDataDir(flags.data, this.config.dataDir)
    await this.prompter.confirm(`reset the emulator's data in ${dataDir}, losing every object made since it was seeded`, {
      yes: flags.yes,
      environment: 'local',
    })
    const {resetStores} = await import('../../emulator/index.js')
    resetStores(dataDir, Date.now())
    process.stderr.write(`Reset the emulator data in ${dataDir}\n`)
  }
}
