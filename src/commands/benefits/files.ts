import {Args} from '@oclif/core'

import {listBenefitFiles} from '../../client/resources/benefits.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class BenefitsFiles extends BaseCommand {
  static override summary = 'List the files a downloadables benefit hands out, with how many customers downloaded each.'
  static override description =
    'The files of the benefit that are not archived, as the service lists them. Only a downloadables benefit has files: for any other type the service answers not found. Upload a file with till files upload and attach it to the benefit with till benefits update.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01',
    {
      description: 'Names and download counts, tab-separated',
      command: '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 -o tsv --columns name,downloads',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Id of a downloadables benefit.', required: true})}
  static override flags = {...outputFlags, ...pageFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(BenefitsFiles)
    const client = await this.ctx.client()
    await this.writeList('benefit-files', listBenefitFiles(client, args.id, this.pageOptions(flags)), flags)
  }
}
