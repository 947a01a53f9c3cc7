import {Args} from '@oclif/core'

import {deleteFile} from '../../client/resources/files.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'

export default class FilesDelete extends BaseCommand {
  static override summary = 'Delete a file (asks for confirmation).'
  static override description =
    'Customers lose access to it through downloadable benefits. Without a terminal, --yes is required. Give - as ID to delete every file id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f',
    '<%= config.bin %> <%= command.id %> 6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f --yes',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'File id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(FilesDelete)
    await this.confirmAction(args.id === '-' ? 'delete every file read from stdin' : `delete file ${args.id}`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteFile(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted file ${result.id}.`)
      },
    )
  }
}
