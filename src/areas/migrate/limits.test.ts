import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {describe, expect, it} from 'vitest'

import {CURRENCIES} from '../../client/currencies.js'
import {LIMITS} from './limits.js'

// biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
type Json = Record<string, any>

const doc: Json = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'contract', '2026-10.openapi.json'), 'utf8'))
const schemas: Json = doc.components.schemas
/** A property's schema, its `anyOf` with null unwrapped. */
const prop = (schema: string, name: string): Json => {
  const p = schemas[schema].properties[name]
  return p.anyOf ? p.anyOf.find((a: Json) => a.type !== 'null') : p
}

describe("the limits the converters apply are the published document's", () => {
  it('products, benefits, discounts, customers and currencies', () => {
    for (const schema of ['ProductCreateRecurring', 'ProductCreateOneTime'])
      expect(prop(schema, 'name')).toMatchObject({minLength: LIMITS.productName.min, maxLength: LIMITS.productName.max})
    expect(prop('ProductCreateRecurring', 'recurring_interval_count')).toMatchObject({maximum: LIMITS.intervalCount})
    expect(prop('BenefitLicenseKeysCreate', 'description')).toMatchObject({minLength: LIMITS.benefitDescription.min, maxLength: LIMITS.benefitDescription.max})
    for (const schema of ['DiscountPercentageCreate', 'DiscountFixedCreate'])
      expect(prop(schema, 'duration_in_months')).toMatchObject({maximum: LIMITS.discountMonths})
    expect(prop('CustomerIndividualCreate', 'name')).toMatchObject({maxLength: LIMITS.customerName})
    expect([...CURRENCIES].sort()).toEqual([...schemas.PresentmentCurrency.enum].sort())
  })
})
