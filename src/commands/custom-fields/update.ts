import {Args, Flags} from '@oclif/core'

import {getCustomField, updateCustomField, writableFieldProperties, type CustomFieldType, type CustomFieldUpdate} from '../../client/resources/custom-fields.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {checkSlug, fieldProperties, propertyFlags} from '../../areas/sales/custom-fields.js'
import {usageError} from '../../client/till-error.js'
import {metadataFrom} from '../../cli/input/fields.js'

export default class CustomFieldsUpdate extends BaseCommand {
  static override summary = "Change a custom field's name, slug, form properties or metadata (not its type)."
  static override description =
    'Form flags replace the whole set of form properties (give every one you want to keep); --option replaces the choices of a select field.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d --name "Company"',
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d --option small=1-10 --option medium=11-50 --option large=51+',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Custom field id.', required: true})}
  static override flags = {
    ...outputFlags,
    slug: Flags.string({description: 'New slug.'}),
    name: Flags.string({char: 'n', description: 'New name.'}),
    ...propertyFlags,
    ...metadataFlag('Metadata key=value, replacing the current metadata (repeatable).'),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomFieldsUpdate)
    if (flags.slug) checkSlug(flags.slug)
    const client = await this.ctx.client()
    const current = await getCustomField(client, args.id)
    const type = current.type as CustomFieldType
    // The service replaces the properties whole (a select field's must carry its options): the given ones over the current.
    const changed = fieldProperties(type, flags)
    const properties = changed ? {...writableFieldProperties(type, current.properties as Record<string, unknown>), ...changed} : undefined
    const body = Object.fromEntries(
      Object.entries({slug: flags.slug, name: flags.name, properties, metadata: metadataFrom(flags.metadata)}).filter(([, v]) => v !== undefined),
    )
    if (Object.keys(body).length === 0) throw usageError('nothing to update', 'pass --name, --slug, a form flag (--label, --option, --min, ...) or --metadata')
    await this.writeChanged('custom-fields', await updateCustomField(client, args.id, {type, ...body} as CustomFieldUpdate), flags)
  }
}
