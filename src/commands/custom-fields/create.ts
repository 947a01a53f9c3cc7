import {Flags} from '@oclif/core'

import {createCustomField, CUSTOM_FIELD_TYPES, type CustomFieldCreate} from '../../client/resources/custom-fields.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {checkSlug, fieldProperties, propertyFlags} from '../../areas/sales/custom-fields.js'
import {usageError} from '../../client/till-error.js'
import {metadataFrom} from '../../cli/input/fields.js'

export default class CustomFieldsCreate extends BaseCommand {
  static override summary = 'Create a custom checkout field: text, number, date, checkbox or select.'
  static override description =
    'The slug is the key of the answer in the order and subscription custom_field_data; it is unique in the organization. A select field needs at least one --option value=Label.'
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'A required company name is attached later per product',
      command: '<%= config.bin %> <%= command.id %> --type text --slug company --name "Company name" --placeholder "Acme Inc."',
    },
    {
      description: 'A choice',
      command: '<%= config.bin %> <%= command.id %> --type select --slug team-size --name "Team size" --option small=1-10 --option large=11+',
    },
    '<%= config.bin %> <%= command.id %> --type number --slug seats --name Seats --min 1 --max 500',
  ]

  static override flags = {
    ...outputFlags,
    type: Flags.option({options: CUSTOM_FIELD_TYPES, description: 'Kind of answer.', required: true})(),
    slug: Flags.string({description: 'Key of the answer: lower-case letters, digits, - and _.', required: true}),
    name: Flags.string({char: 'n', description: 'Name of the field.', required: true}),
    ...propertyFlags,
    ...metadataFlag(),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomFieldsCreate)
    checkSlug(flags.slug)
    const properties = fieldProperties(flags.type, flags) ?? {}
    if (flags.type === 'select' && !properties.options) throw usageError('a select field needs its choices: --option value=Label (repeatable)')
    const client = await this.ctx.client()
    await this.writeCreated(
      'custom-fields',
      await createCustomField(client, {
        type: flags.type,
        slug: flags.slug,
        name: flags.name,
        properties,
        metadata: metadataFrom(flags.metadata),
      } as CustomFieldCreate),
      flags,
    )
  }
}
