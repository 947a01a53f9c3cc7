import {Flags} from '@oclif/core'

import {listFiles} from '../../client/resources/files.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class FilesList extends BaseCommand {
  static override summary = 'List uploaded files, newest first.'
  static override description = 'Files whose upload was not completed are not listed.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --all -o jsonl']
  static override flags = {...outputFlags, ...pageFlags, id: Flags.string({description: 'Only this file id (repeatable).', multiple: true})}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(FilesList)
    await this.writeList('files', listFiles(await this.ctx.client(), flags.id, this.pageOptions(flags)), flags)
  }
}
