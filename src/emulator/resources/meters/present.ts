// Meters: stored records -> the API's wire shape.
import type {Ctx} from '../../core/http.js'
import type {MeterRecord} from './model.js'
import type {Presented} from '../../core/present.js'

export function presentMeter(ctx: Ctx, m: MeterRecord): Presented<'Meter'> {
  return {
    metadata: m.metadata,
    created_at: m.created_at,
    modified_at: m.modified_at,
    id: m.id,
    name: m.name,
    unit: m.unit,
    custom_label: m.custom_label,
    custom_multiplier: m.custom_multiplier,
    filter: m.filter,
    aggregation: m.aggregation,
    organization_id: ctx.store.data.organization.id,
    archived_at: m.archived_at,
  }
}
