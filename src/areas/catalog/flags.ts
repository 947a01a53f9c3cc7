// Flags shared by the catalog commands (products, checkouts, checkout links, benefits).
import {Flags} from '@oclif/core'

import {dryRunFlag} from '../../cli/base-command.js'

export const yesFlag = {yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}), 'dry-run': dryRunFlag}

export const metadataFlag = (description = 'Metadata key=value (repeatable).') => ({metadata: Flags.string({char: 'm', description, multiple: true})})

export const VISIBILITIES = ['draft', 'private', 'public'] as const

/** How a product is priced: fixed (`--price`/`--amount-minor`), `--free`, or `--pay-what-you-want` with its bounds. */
export const priceFlags = {
  price: Flags.string({description: 'Fixed price in major units of the currency, e.g. 12.00.', helpGroup: 'PRICE'}),
  'amount-minor': Flags.integer({description: 'Fixed price in minor units (cents), e.g. 1200.', min: 0, helpGroup: 'PRICE'}),
  free: Flags.boolean({description: 'A free price.', helpGroup: 'PRICE'}),
  'pay-what-you-want': Flags.boolean({description: 'Customers choose the amount (a custom price).', helpGroup: 'PRICE'}),
  minimum: Flags.string({
    description: 'With --pay-what-you-want: lowest amount accepted, e.g. 1.00 (service default 0.50; 0 allows free).',
    helpGroup: 'PRICE',
  }),
  maximum: Flags.string({description: 'With --pay-what-you-want: highest amount accepted.', helpGroup: 'PRICE'}),
  preset: Flags.string({description: 'With --pay-what-you-want: amount suggested on the checkout.', helpGroup: 'PRICE'}),
}

/** A seat-based price (`--seat-tiers`, `--seat-tier-type`): `price` says which, "A seat-based price" or "A new seat-based price". */
export const seatTierFlags = (price: string) => ({
  'seat-tiers': Flags.string({
    description: `${price}: tiers MIN-MAX:PRICE, the last MIN+:PRICE, comma-separated, each price per seat in major units, e.g. 1-5:10.00,6+:8.00.`,
    helpGroup: 'PRICE',
  }),
  'seat-tier-type': Flags.option({
    options: ['volume', 'graduated'] as const,
    description: 'With --seat-tiers: volume (every seat at the tier the count falls in; the default) or graduated (each tier its own seats).',
    helpGroup: 'PRICE',
    dependsOn: ['seat-tiers'],
  })(),
})

/** Benefit properties: a JSON object for any type, and flags for custom and license_keys benefits. */
export const benefitPropertyFlags = {
  properties: Flags.string({description: 'Properties as a JSON object (any type; the flags below override its keys).', helpGroup: 'PROPERTIES'}),
  note: Flags.string({description: 'custom: private note shown to customers who have the benefit.', helpGroup: 'PROPERTIES'}),
  prefix: Flags.string({description: 'license_keys: prefix of the generated keys, e.g. ACME.', helpGroup: 'PROPERTIES'}),
  'activation-limit': Flags.integer({
    description: 'license_keys: devices a key can be activated on, 1-50 (0: no activations).',
    min: 0,
    max: 50,
    helpGroup: 'PROPERTIES',
  }),
  'customer-admin': Flags.boolean({description: 'license_keys: let customers deactivate their own activations.', allowNo: true, helpGroup: 'PROPERTIES'}),
  'usage-limit': Flags.integer({description: 'license_keys: times a key can be used (0: unlimited).', min: 0, helpGroup: 'PROPERTIES'}),
  expires: Flags.string({description: 'license_keys: keys expire after this long, e.g. 30d, 6m, 1y (never: no expiry).', helpGroup: 'PROPERTIES'}),
  meter: Flags.string({description: 'meter_credit: the meter credited.', helpGroup: 'PROPERTIES'}),
  units: Flags.integer({description: 'meter_credit: units credited on each grant (and each period of a subscription).', min: 0, helpGroup: 'PROPERTIES'}),
  rollover: Flags.boolean({description: 'meter_credit: unused units carry over to the next period.', allowNo: true, helpGroup: 'PROPERTIES'}),
}
