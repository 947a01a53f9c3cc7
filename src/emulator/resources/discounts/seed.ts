// Seeded discounts: a percentage code for a first purchase and a fixed amount for three months.
import type {EnvData} from '../../core/model.js'
import {DAY, iso} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'

export function seedDiscounts(data: EnvData, random: Random, start: number): void {
  const at = iso(start + DAY)
  const common = {created_at: at, modified_at: null, starts_at: null, ends_at: null, redemptions_count: 0, product_ids: [], deleted_at: null}
  data.discounts.push(
    {
      ...common,
      id: uuid(random),
      metadata: {campaign: 'welcome'},
      name: 'Welcome 20%',
      code: 'WELCOME20',
      type: 'percentage',
      duration: 'once',
      duration_in_months: null,
      basis_points: 2000,
      amounts: null,
      max_redemptions: null,
    },
    {
      ...common,
      id: uuid(random),
      metadata: {},
      name: '$5 off for 3 months',
      code: null,
      type: 'fixed',
      duration: 'repeating',
      duration_in_months: 3,
      basis_points: null,
      amounts: {usd: 500},
      max_redemptions: 100,
    },
  )
}
