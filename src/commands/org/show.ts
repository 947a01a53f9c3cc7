import {Args} from '@oclif/core'

import {getOrganization, ownOrganization} from '../../client/resources/organizations.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {PER_IP_BUDGET} from '../../cli/context.js'
import {organizationSummary} from '../../areas/customers/customers.js'

export default class OrgShow extends BaseCommand {
  static override summary = "Show the organization the profile's token belongs to, its environment and the rate budget in force."
  static override description =
    'The rate budget is the per-minute limit till paces requests to (the environment\'s default, or one set on the profile or in TILL_RATE_LIMIT), plus the per-IP limit of 100 requests per second. --json gives the API\'s organization object under "organization". Given an id, that organization is read by id (an organization token sees only its own; another is not found).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --profile sandbox --json',
    '<%= config.bin %> <%= command.id %> 1dbfc517-0bbf-4301-9ba8-555ca42b9737',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: "Organization id (default: the token's own organization)."})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrgShow)
    const client = await this.ctx.client()
    const organization = args.id ? await getOrganization(client, args.id) : await ownOrganization(client)
    const summary = organizationSummary(organization, this.ctx.profile, PER_IP_BUDGET)
    const machine = flags.json || flags.output === 'json' || flags.output === 'jsonl'
    await this.writeOne('organization', machine ? summary.json : summary.view, flags)
  }
}
