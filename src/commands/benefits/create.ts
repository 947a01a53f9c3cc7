import {Flags} from '@oclif/core'

import {BENEFIT_TYPES, createBenefit, type BenefitCreate} from '../../client/resources/benefits.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {benefitPropertyFlags, metadataFlag, VISIBILITIES} from '../../areas/catalog/flags.js'
import {benefitProperties} from '../../areas/catalog/input.js'
import {metadataFrom} from '../../cli/input/fields.js'

const descriptionRule = (v: string) => (v.trim().length >= 3 && v.trim().length <= 42) || 'a description of 3-42 characters'

export default class BenefitsCreate extends BaseCommand {
  static override summary = 'Create a benefit to grant with products.'
  static override description =
    'custom, license_keys and meter_credit benefits take their properties from flags (--note; --prefix, --activation-limit, --usage-limit, --expires; --meter, --units, --rollover); any type takes --properties as JSON. Attach it to a product with: till products update ID --benefit BENEFIT_ID. On a terminal a missing type or description is asked for.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --type custom --description "Priority support" --note "Write to support@example.com"',
    {
      description: 'License keys usable on 3 devices, valid for a year',
      command: '<%= config.bin %> <%= command.id %> --type license_keys --description "License key" --prefix ACME --activation-limit 3 --expires 1y',
    },
    {
      description: 'Another type, with its properties as JSON',
      command:
        '<%= config.bin %> <%= command.id %> --type github_repository --description "Repository access" --properties \'{"repository_owner":"acme","repository_name":"pro","permission":"pull"}\'',
    },
    {
      description: 'Credit 1,000 units of a meter on every grant',
      command:
        '<%= config.bin %> <%= command.id %> --type meter_credit --description "1,000 API calls" --meter 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d --units 1000',
    },
  ]

  static override flags = {
    ...outputFlags,
    type: Flags.option({options: BENEFIT_TYPES, char: 't', description: 'Kind of benefit.'})(),
    description: Flags.string({char: 'd', description: 'What the customer gets, 3-42 characters (shown to customers).'}),
    visibility: Flags.option({options: VISIBILITIES, description: 'Who can see it (default public).'})(),
    ...benefitPropertyFlags,
    ...metadataFlag(),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(BenefitsCreate)
    const metadata = metadataFrom(flags.metadata)
    const type = flags.type ?? (await this.prompter.select('--type', 'Benefit type', async () => BENEFIT_TYPES.map((t) => ({name: t, value: t}))))
    const properties = benefitProperties(type, flags) ?? {}
    const description = flags.description ?? (await this.prompter.text('--description', 'Description shown to customers', {validate: descriptionRule})).trim()
    // The properties are those of `type` (benefitProperties), which the document's union is read by.
    const benefit = await createBenefit(await this.ctx.client(), {type, description, properties, visibility: flags.visibility, metadata} as BenefitCreate)
    await this.writeCreated('benefits', benefit, flags)
  }
}
