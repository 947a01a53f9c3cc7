import {Args, Flags} from '@oclif/core'

import {getBenefit, updateBenefit, UPDATE_TAKES_VISIBILITY, writableProperties, type BenefitType, type BenefitUpdate} from '../../client/resources/benefits.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {benefitPropertyFlags, metadataFlag, VISIBILITIES} from '../../areas/catalog/flags.js'
import {benefitProperties} from '../../areas/catalog/input.js'
import {mergeMetadata} from '../../cli/input/fields.js'
import {usageError} from '../../client/till-error.js'

const PROPERTY_FLAGS = Object.keys(benefitPropertyFlags) as Array<keyof typeof benefitPropertyFlags>

export default class BenefitsUpdate extends BaseCommand {
  static override summary = "Change a benefit's description, visibility, metadata or properties."
  static override description =
    'Property flags are merged into the current properties; --metadata key=value into the current metadata (key= removes a key). The type cannot change. Customers who have the benefit see the change. Give - as ID to apply the same change to every benefit id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --description "Priority support (24h)"',
    '<%= config.bin %> <%= command.id %> 3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b --activation-limit 5 --customer-admin',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Benefit id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    description: Flags.string({char: 'd', description: 'New description, 3-42 characters.'}),
    visibility: Flags.option({options: VISIBILITIES, description: 'Who can see it.'})(),
    ...benefitPropertyFlags,
    ...metadataFlag('Set metadata key=value, merged into the current metadata; key= removes the key (repeatable).'),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(BenefitsUpdate)
    const properties = PROPERTY_FLAGS.some((k) => flags[k] !== undefined)
    if (flags.description === undefined && flags.visibility === undefined && !flags.metadata?.length && !properties) {
      throw usageError(
        'nothing to update',
        'pass --description, --visibility, --metadata or property flags (--note, --prefix, --activation-limit, --properties...)',
      )
    }
    if (flags.metadata) mergeMetadata({}, flags.metadata)
    const client = await this.ctx.client()
    const update = async (id: string) => {
      // Every Benefit*Update names the benefit's own type, so the benefit is read first.
      const current = await getBenefit(client, id)
      if (flags.visibility !== undefined && UPDATE_TAKES_VISIBILITY[current.type as BenefitType] === false) {
        throw usageError(`--visibility: the service cannot change the visibility of a ${current.type} benefit`)
      }
      const body: Record<string, unknown> = {type: current.type, description: flags.description, visibility: flags.visibility}
      if (flags.metadata?.length) body.metadata = mergeMetadata(current.metadata, flags.metadata)
      // what was read is merged in as the update takes it: what the service shows besides is not sent back
      const read = writableProperties(current.type, current.properties as Record<string, unknown>)
      const props = properties ? benefitProperties(current.type, flags, read) : undefined
      // The properties are those of the benefit's own type (benefitProperties), as `type` says.
      if (props) body.properties = props
      return updateBenefit(client, id, body as BenefitUpdate)
    }
    await this.eachId(args.id, flags, update, (benefit) => this.writeChanged('benefits', benefit, flags))
  }
}
