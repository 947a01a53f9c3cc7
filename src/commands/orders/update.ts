import {Args, Flags} from '@oclif/core'

import {getOrder, updateOrder, type Address, type BillingUpdate} from '../../lib/api/resources/orders.js'
import {BaseCommand, outputFlags} from '../../lib/base-command.js'
import {usageError} from '../../lib/errors.js'

const ADDRESS_FLAGS = {country: 'country', line1: 'line1', line2: 'line2', city: 'city', 'postal-code': 'postal_code', state: 'state'} as const

export default class OrdersUpdate extends BaseCommand {
  static override summary = "Set an order's billing name and address (only until its invoice is generated)."
  static override description = 'Address flags are merged into the address the order already has. The service refuses changes once the invoice exists, and a change of country or state of an existing address.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --billing-name "Acme GmbH" --country DE --line1 "Unter den Linden 5" --postal-code 10117 --city Berlin',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --line2 "Floor 3"',
  ]

  static override args = {id: Args.string({description: 'Order id.', required: true})}
  static override flags = {
    ...outputFlags,
    'billing-name': Flags.string({description: 'Name printed on the invoice.'}),
    country: Flags.string({description: 'Country, ISO 3166-1 alpha-2 (e.g. US, DE).'}),
    line1: Flags.string({description: 'Address line 1.'}),
    line2: Flags.string({description: 'Address line 2.'}),
    city: Flags.string({description: 'City.'}),
    'postal-code': Flags.string({description: 'Postal code.'}),
    state: Flags.string({description: 'State or region, ISO 3166-2 (e.g. US-CA).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersUpdate)
    const addressChanges = Object.entries(ADDRESS_FLAGS).filter(([flag]) => flags[flag as keyof typeof ADDRESS_FLAGS] !== undefined)
    if (flags['billing-name'] === undefined && addressChanges.length === 0) {
      throw usageError('nothing to update', 'pass --billing-name and/or address flags (--country, --line1, --line2, --city, --postal-code, --state)')
    }
    if (flags.country && !/^[A-Za-z]{2}$/.test(flags.country)) throw usageError(`--country must be a two-letter code such as US or DE, not "${flags.country}"`)
    const client = await this.ctx.client()
    const body: BillingUpdate = {}
    if (flags['billing-name'] !== undefined) body.billing_name = flags['billing-name']
    if (addressChanges.length > 0) {
      const current = ((await getOrder(client, args.id)).billing_address ?? null) as Address | null
      const address: Record<string, string | null | undefined> = {...current}
      for (const [flag, key] of addressChanges) address[key] = flags[flag as keyof typeof ADDRESS_FLAGS]
      if (address.country) address.country = address.country.toUpperCase()
      if (!address.country) throw usageError('--country is required: the order has no address yet')
      body.billing_address = address as unknown as Address
    }
    await this.writeOne('orders', await updateOrder(client, args.id, body), flags)
  }
}
