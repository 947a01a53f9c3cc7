import {Flags} from '@oclif/core'

import {BENEFIT_TYPES, listBenefits} from '../../client/resources/benefits.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class BenefitsList extends BaseCommand {
  static override summary = 'List benefits, newest first.'
  static override description = 'Benefits are what customers get with a product: a custom note, license keys, downloads, a Discord role, repository access...'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'License-key benefits only', command: '<%= config.bin %> <%= command.id %> --type license_keys'},
    {description: 'Search the descriptions', command: '<%= config.bin %> <%= command.id %> --query support --columns id,description'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    type: Flags.option({options: BENEFIT_TYPES, description: 'Only benefits of this type (repeatable).', multiple: true})(),
    query: Flags.string({char: 'q', description: 'Only benefits whose description contains this text.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, description, type).'}),
    metadata: Flags.string({description: 'Only benefits with this metadata, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(BenefitsList)
    const client = await this.ctx.client()
    const items = listBenefits(
      client,
      {type: flags.type, query: flags.query, sorting: flags.sort?.split(','), metadata: flags.metadata},
      this.pageOptions(flags),
    )
    await this.writeList('benefits', items, flags)
  }
}
