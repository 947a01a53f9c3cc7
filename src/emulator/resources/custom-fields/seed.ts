// A seeded custom field: the company name, a text field.
import type {EnvData} from '../../core/model.js'
import {DAY, iso} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'

export function seedCustomFields(data: EnvData, random: Random, start: number): void {
  data.custom_fields.push({
    id: uuid(random),
    created_at: iso(start + DAY),
    modified_at: null,
    metadata: {},
    type: 'text',
    slug: 'company',
    name: 'Company',
    properties: {form_label: 'Company name'},
  })
}
