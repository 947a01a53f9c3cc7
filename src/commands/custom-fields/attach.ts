import {Args, Flags} from '@oclif/core'

import {getProduct} from '../../client/resources/products.js'
import {checkUuid} from '../../client/ids.js'
import {setProductCustomFields} from '../../client/resources/custom-fields.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

interface Attached {
  custom_field_id: string
  required: boolean
}

export default class CustomFieldsAttach extends BaseCommand {
  static override summary = "Ask a custom field at a product's checkout, or stop asking it (--detach)."
  static override description =
    "Reads the product's attached fields and sends the list with this field added at the end (or its --required changed), or taken out with --detach."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --required',
    '<%= config.bin %> <%= command.id %> 4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --detach',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Custom field id.', required: true})}
  static override flags = {
    ...outputFlags,
    product: Flags.string({description: 'Product id.', required: true}),
    required: Flags.boolean({description: 'The customer must answer it (--no-required: may skip it).', allowNo: true, exclusive: ['detach']}),
    detach: Flags.boolean({description: "Stop asking it at this product's checkout."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomFieldsAttach)
    checkUuid(flags.product, 'product id (--product)')
    const client = await this.ctx.client()
    const product = await getProduct(client, flags.product)
    const current = ((product.attached_custom_fields as Attached[] | undefined) ?? []).map((a) => ({custom_field_id: a.custom_field_id, required: a.required}))
    const others = current.filter((a) => a.custom_field_id !== args.id)
    const existing = current.find((a) => a.custom_field_id === args.id)
    const required = flags.required ?? existing?.required ?? false
    const next = flags.detach
      ? others
      : existing
        ? current.map((a) => (a === existing ? {...a, required} : a))
        : [...others, {custom_field_id: args.id, required}]
    await this.writeOne('products', await setProductCustomFields(client, flags.product, next), flags)
  }
}
