import {Args, Flags} from '@oclif/core'

import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {metadataFlag, priceFlags, seatTierFlags, VISIBILITIES} from '../../areas/catalog/flags.js'
import {applyProductChanges, hasProductChanges, productUpdateBody, type ProductChanges} from '../../areas/catalog/input.js'
import {usageError} from '../../client/till-error.js'

export default class ProductsUpdate extends BaseCommand {
  static override summary = "Change a product's name, description, visibility, metadata, price or benefits."
  static override description =
    'A new price replaces the current one: the service archives the old price, so existing subscriptions keep it and new checkouts use the new one. --metadata key=value is merged into the current metadata (key= removes a key). --benefit attaches and --remove-benefit detaches benefits. Give - as ID to apply the same change to every product id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --price 39.00',
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --seat-tiers 1-10:9.00,11+:7.00',
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --name "Pro Plan" --metadata tier=pro --metadata legacy=',
    {
      description: 'Hide every product whose name contains "beta"',
      command: '<%= config.bin %> products list --query beta --all -o jsonl | <%= config.bin %> <%= command.id %> - --visibility private',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Product id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    name: Flags.string({char: 'n', description: 'New name, 3-64 characters.'}),
    description: Flags.string({char: 'd', description: 'New description ("" clears it).'}),
    visibility: Flags.option({options: VISIBILITIES, description: 'Who can see it.'})(),
    ...priceFlags,
    currency: Flags.string({description: "Currency of the new price (default: the current price's).", helpGroup: 'PRICE'}),
    ...seatTierFlags('A new seat-based price'),
    ...metadataFlag('Set metadata key=value, merged into the current metadata; key= removes the key (repeatable).'),
    benefit: Flags.string({description: 'Attach this benefit id (repeatable).', multiple: true}),
    'remove-benefit': Flags.string({description: 'Detach this benefit id (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProductsUpdate)
    const changes: ProductChanges = {
      name: flags.name,
      description: flags.description,
      visibility: flags.visibility,
      metadata: flags.metadata,
      price: flags,
      seats: {tiers: flags['seat-tiers'], type: flags['seat-tier-type']},
      currency: flags.currency,
      addBenefits: flags.benefit,
      removeBenefits: flags['remove-benefit'],
    }
    if (!hasProductChanges(changes)) {
      throw usageError(
        'nothing to update',
        'pass --name, --description, --visibility, --metadata, a price (--price, --free, --pay-what-you-want, --seat-tiers) or --benefit/--remove-benefit',
      )
    }
    // Check the flags once before any request (the currency may come from the product later).
    productUpdateBody(changes, undefined)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => applyProductChanges(client, id, changes),
      (product) => this.writeChanged('products', product, flags),
    )
  }
}
