// Flags and data dir shared by the emulator commands.
import {join} from 'node:path'

import {Flags} from '@oclif/core'

import {parseDuration} from '../client/duration.js'

export const duration = Flags.custom<number>({
  parse: async (input) => parseDuration(input),
})

export const dataFlag = Flags.directory({
  description: "Folder of the emulator's stores (default: the emulator folder in till's data dir, or $TILL_DATA_DIR).",
  env: 'TILL_EMULATOR_DATA',
})

/** `--data`, else `$TILL_DATA_DIR/emulator`, else `<oclif data dir>/emulator`. */
export function emulatorDataDir(flag: string | undefined, configDataDir: string): string {
  return flag ?? join(process.env.TILL_DATA_DIR ?? configDataDir, 'emulator')
}
