// Billing address flags, shared by orders, customers and the portal: merged into the current address.
import {Flags} from '@oclif/core'

import {type EveryKey, onlyKeys} from '../../client/resources/common.js'
import type {Address} from '../../client/resources/orders.js'
import type {Schema} from '../../client/wire/index.js'
import {usageError} from '../../client/till-error.js'
import {isCountry} from '../../client/countries.js'
import {printable} from '../../client/ids.js'

/** The flags of a billing address, as `orders update` has them, and the wire field each sets. */
export const addressFlags = {
  country: Flags.string({description: 'Billing country, ISO 3166-1 alpha-2 (e.g. US, DE).'}),
  line1: Flags.string({description: 'Billing address line 1.'}),
  line2: Flags.string({description: 'Billing address line 2.'}),
  city: Flags.string({description: 'Billing city.'}),
  'postal-code': Flags.string({description: 'Billing postal code.'}),
  state: Flags.string({description: 'Billing state or region, ISO 3166-2 (e.g. US-CA).'}),
}
const ADDRESS_FIELDS = {country: 'country', line1: 'line1', line2: 'line2', city: 'city', 'postal-code': 'postal_code', state: 'state'} as const
/** The fields of the address a request takes (the document's AddressInput). */
const ADDRESS_INPUT: EveryKey<Schema<'AddressInput'>> = {line1: true, line2: true, postal_code: true, city: true, state: true, country: true}
export type AddressFlagValues = Partial<Record<keyof typeof ADDRESS_FIELDS, string>>

/** Whether any billing address flag was given; a malformed --country is refused at once. */
export function addressFlagsGiven(flags: AddressFlagValues): boolean {
  if (flags.country !== undefined && !/^[A-Za-z]{2}$/.test(flags.country)) {
    throw usageError(`--country must be a two-letter code such as US or DE, not "${printable(flags.country)}"`)
  }
  if (flags.country !== undefined && !isCountry(flags.country.toUpperCase())) {
    throw usageError(
      `--country ${flags.country.toUpperCase()} is not a country the API accepts for a billing address`,
      'give an ISO 3166-1 alpha-2 code such as US, DE or FR',
    )
  }
  return Object.keys(ADDRESS_FIELDS).some((flag) => flags[flag as keyof AddressFlagValues] !== undefined)
}

/**
 * The billing address the flags describe, merged into `current` (undefined when no address flag was
 * given). A new address needs --country.
 */
export function addressFrom(flags: AddressFlagValues, current?: Address | null): Address | undefined {
  if (!addressFlagsGiven(flags)) return undefined
  // the current address as the request takes it (AddressInput): nothing the service shows besides
  const address: Record<string, string | null | undefined> = current ? onlyKeys(current, ADDRESS_INPUT) : {}
  for (const [flag, field] of Object.entries(ADDRESS_FIELDS)) {
    const value = flags[flag as keyof AddressFlagValues]
    if (value !== undefined) address[field] = value
  }
  if (!address.country) throw usageError('--country is required for a billing address', 'e.g. --country US --line1 "1 Main St" --city Springfield')
  address.country = address.country.toUpperCase()
  return address as unknown as Address
}
