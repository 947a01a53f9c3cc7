import {Args, Flags} from '@oclif/core'

import {updateFile} from '../../client/resources/files.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {usageError} from '../../client/till-error.js'

export default class FilesUpdate extends BaseCommand {
  static override summary = 'Rename a file or change its version label.'
  static override description = '--version "" clears the version.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> 6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f --name "Handbook (2nd edition)" --version 2']
  static override args = {id: Args.string({ignoreStdin: true, description: 'File id.', required: true})}
  static override flags = {...outputFlags, name: Flags.string({description: 'New name.'}), version: Flags.string({description: 'New version label.'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(FilesUpdate)
    if (flags.name === undefined && flags.version === undefined) throw usageError('nothing to update', 'pass --name or --version')
    const body = {name: flags.name, version: flags.version === '' ? null : flags.version}
    await this.writeChanged('files', await updateFile(await this.ctx.client(), args.id, body), flags)
  }
}
