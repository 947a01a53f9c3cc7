import {Args, Flags} from '@oclif/core'

import {deleteEndpoint} from '../../../client/resources/webhooks.js'
import {BaseCommand, bulkWriteFlags, outputFlags, dryRunFlag} from '../../../areas/command.js'

export default class WebhooksEndpointsDelete extends BaseCommand {
  static override summary = 'Delete a webhook endpoint: the service stops sending it events.'
  static override description =
    'Asks for confirmation on a terminal; without one, --yes is required. Give - as ID to delete every endpoint whose id is read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    {
      description: 'Every disabled endpoint',
      command: "<%= config.bin %> webhooks endpoints list --all -o jsonl | jq -c 'select(.enabled | not)' | <%= config.bin %> <%= command.id %> - --yes",
    },
  ]

  static override args = {id: Args.string({description: 'Webhook endpoint id, or - to read ids from stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(WebhooksEndpointsDelete)
    await this.confirmAction(args.id === '-' ? 'delete every webhook endpoint read from stdin' : `delete webhook endpoint ${args.id}`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteEndpoint(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (flags.json || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted webhook endpoint ${result.id}.`)
      },
    )
  }
}
