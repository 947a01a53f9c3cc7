import {Args, Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {updateMeter} from '../../client/resources/meters.js'

export default class MetersArchive extends BaseCommand {
  static override summary = 'Archive a meter (or bring it back with --undo).'
  static override description =
    'An archived meter keeps its events and quantities; it is hidden from customers. Confirmed on a terminal; needs --yes otherwise.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --yes',
    '<%= config.bin %> <%= command.id %> 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --undo',
  ]

  static override args = {id: Args.string({description: 'Meter id.', required: true})}
  static override flags = {
    ...outputFlags,
    undo: Flags.boolean({description: 'Unarchive the meter instead.'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(MetersArchive)
    if (!flags.undo) await this.confirmAction(`archive the meter ${args.id}`, flags.yes)
    const client = await this.ctx.client()
    await this.writeChanged('meters', await updateMeter(client, args.id, {is_archived: !flags.undo}), flags)
  }
}
