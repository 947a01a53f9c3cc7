import {Args, Flags} from '@oclif/core'

import {deleteCustomer, describeRef} from '../../client/resources/customers.js'
import {BaseCommand, bulkWriteFlags, outputFlags, dryRunFlag} from '../../areas/command.js'
import {customerTarget, externalIdFlag} from '../../areas/customers/customers.js'

export default class CustomersDelete extends BaseCommand {
  static override summary = 'Delete a customer: its subscriptions end now and its benefits are revoked.'
  static override description =
    'The customer is kept as deleted and its external id is released. --anonymize also erases its email, name and billing details. Asks for confirmation on a terminal; without one, --yes is required. Give - as ID (or as --external-id) to delete every customer read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    '<%= config.bin %> <%= command.id %> --external-id user_1234 --anonymize --yes',
    {description: 'Every customer whose id is in a file, one per line', command: '<%= config.bin %> <%= command.id %> - --yes < ids.txt'},
  ]

  static override args = {id: Args.string({description: 'Customer id, or - to read ids from stdin.', ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    'external-id': externalIdFlag,
    anonymize: Flags.boolean({description: 'Also erase personal data (email, name, billing name and address, tax id).'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersDelete)
    const target = await customerTarget(args.id, flags['external-id'], this.prompter, () => this.ctx.client(), 'Customer to delete')
    const what = target.value === '-' ? 'every customer read from stdin' : `customer ${describeRef(target.ref(target.value))}`
    await this.confirmAction(`delete ${what} (subscriptions end now, benefits are revoked${flags.anonymize ? ', personal data is erased' : ''})`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      target.value,
      flags,
      async (v) => {
        await deleteCustomer(client, target.ref(v), flags.anonymize)
        return {...('id' in target.ref(v) ? {id: v} : {external_id: v}), deleted: true, anonymized: Boolean(flags.anonymize)}
      },
      async (result) => {
        if (flags.json || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted customer ${'id' in result ? result.id : `with external id ${result.external_id}`}.`)
      },
    )
  }
}
