// Custom fields: stored records -> the API's wire shape (server/polar/custom_field/schemas.py).
import {type View, orgId} from '../../core/present.js'
import type {CustomFieldRecord} from './model.js'
import type {Presented} from '../../core/present.js'

export function customField(v: View, f: CustomFieldRecord): Presented<'CustomField'> {
  return {
    created_at: f.created_at,
    modified_at: f.modified_at,
    id: f.id,
    metadata: f.metadata,
    type: f.type,
    slug: f.slug,
    name: f.name,
    organization_id: orgId(v),
    properties: f.properties,
  }
}
