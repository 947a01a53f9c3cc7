// Flags of `till custom-fields create|update` turned into the API's properties, checked before sending.
import {Flags} from '@oclif/core'

import type {ApiClient} from '../../client/client.js'
import type {CustomFieldType} from '../../client/resources/custom-fields.js'
import {getProduct} from '../../client/resources/products.js'
import {usageError} from '../../client/till-error.js'
import {parsePairs} from '../../cli/input/fields.js'
import {nearestName} from '../../cli/suggest.js'

export const propertyFlags = {
  label: Flags.string({description: 'Label shown on the checkout form (default: the name).', helpGroup: 'FORM'}),
  'help-text': Flags.string({description: 'Help text under the field.', helpGroup: 'FORM'}),
  placeholder: Flags.string({description: 'Placeholder in the empty field.', helpGroup: 'FORM'}),
  option: Flags.string({description: 'A choice of a select field, value=Label (repeatable, in order).', multiple: true, helpGroup: 'FORM'}),
  min: Flags.integer({description: 'Least value (number, date as a Unix time) or length (text).', helpGroup: 'FORM'}),
  max: Flags.integer({description: 'Greatest value (number, date as a Unix time) or length (text).', helpGroup: 'FORM'}),
  textarea: Flags.boolean({description: 'A text field on several lines.', helpGroup: 'FORM'}),
}

export interface PropertyFlagValues {
  label?: string
  'help-text'?: string
  placeholder?: string
  option?: string[]
  min?: number
  max?: number
  textarea?: boolean
}

/** The properties for `type` from the flags; undefined when none is given. Flags that do not fit the type are refused. */
export function fieldProperties(type: CustomFieldType, f: PropertyFlagValues): Record<string, unknown> | undefined {
  if (f.option && type !== 'select') throw usageError(`--option is for select fields, not ${type}`)
  if (f.textarea && type !== 'text') throw usageError(`--textarea is for text fields, not ${type}`)
  if ((f.min !== undefined || f.max !== undefined) && !['text', 'number', 'date'].includes(type)) throw usageError(`--min and --max are not for ${type} fields`)
  if (f.min !== undefined && f.max !== undefined && f.min > f.max) throw usageError('--min must not be above --max')
  const p: Record<string, unknown> = {}
  if (f.label !== undefined) p.form_label = f.label
  if (f['help-text'] !== undefined) p.form_help_text = f['help-text']
  if (f.placeholder !== undefined) p.form_placeholder = f.placeholder
  if (f.option) {
    const pairs = parsePairs(f.option, '--option') ?? {}
    p.options = Object.entries(pairs).map(([value, label]) => {
      if (!value || !label) throw usageError(`--option ${value}=${label} needs both a value and a label, e.g. --option pro=Pro`)
      return {value, label}
    })
  }
  if (type === 'text') {
    if (f.min !== undefined) p.min_length = f.min
    if (f.max !== undefined) p.max_length = f.max
    if (f.textarea) p.textarea = true
  } else {
    if (f.min !== undefined) p.ge = f.min
    if (f.max !== undefined) p.le = f.max
  }
  return Object.keys(p).length > 0 ? p : undefined
}

export function checkSlug(slug: string): void {
  if (!/^[a-z0-9_-]+$/.test(slug)) throw usageError(`--slug must be lower-case letters, digits, - and _, not "${slug}"`, 'e.g. --slug company-size')
}

/**
 * Refuses `--field` slugs that the checkout's product does not ask (the service would drop their values
 * silently), naming the ones it has. One request, only when fields are given.
 */
export async function checkFieldSlugs(client: ApiClient, productId: string, data: Record<string, unknown> | undefined): Promise<void> {
  if (!data || Object.keys(data).length === 0) return
  const product = await getProduct(client, productId)
  const slugs = (product.attached_custom_fields ?? []).map((a) => a.custom_field.slug)
  const unknown = Object.keys(data).filter((slug) => !slugs.includes(slug))
  if (unknown.length === 0) return
  const near = nearestName(unknown[0]!, slugs)
  const named = unknown.map((s) => `"${s}"`).join(', ')
  const has = slugs.length > 0 ? `its fields are ${slugs.join(', ')}` : 'it has none (attach one: till custom-fields attach FIELD_ID --product ID)'
  throw usageError(`--field: product "${product.name}" has no custom field ${named}${near ? ` (did you mean "${near}"?)` : ''}; ${has}`)
}
