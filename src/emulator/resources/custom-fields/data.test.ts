import {describe, expect, it} from 'vitest'

import {HttpError} from '../../core/errors.js'
import {validateCustomFieldData} from './data.js'
import type {CustomFieldRecord} from './model.js'

const field = (id: string, type: CustomFieldRecord['type'], properties: Record<string, unknown> = {}): CustomFieldRecord => ({
  id,
  created_at: '',
  modified_at: null,
  metadata: {},
  type,
  slug: id,
  name: id,
  properties,
})

const FIELDS = new Map(
  [
    field('name', 'text', {min_length: 1, max_length: 3}),
    field('count', 'number', {ge: 0, le: 10}),
    field('day', 'date', {ge: Date.parse('2026-01-01T00:00:00Z') / 1000, le: Date.parse('2026-12-31T12:00:00Z') / 1000}),
    field('ok', 'checkbox'),
    field('size', 'select', {
      options: [
        {value: 's', label: 'S'},
        {value: 'm', label: 'M'},
      ],
    }),
  ].map((f) => [f.id, f]),
)
const all = (required: boolean) => [...FIELDS.keys()].map((id) => ({custom_field_id: id, required}))
const check = (data: Record<string, unknown>, required = false, enforce = false) =>
  validateCustomFieldData((id) => FIELDS.get(id), all(required), data, enforce)
const issues = (data: Record<string, unknown>, required = false, enforce = false) => {
  try {
    check(data, required, enforce)
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError)
    return (error as HttpError).body as {error: string; detail: Array<{type: string; loc: string[]; msg: string}>}
  }
  throw new Error('no error')
}

describe('validateCustomFieldData', () => {
  it('keeps only the attached fields, with their defaults, and converts as the service does', () => {
    expect(check({other: 1})).toEqual({name: null, count: null, day: null, ok: false, size: null})
    expect(check({name: 'abc', count: ' 7 ', day: '2026-05-01', ok: 'yes', size: 'm'})).toEqual({
      name: 'abc',
      count: 7,
      day: '2026-05-01T00:00:00',
      ok: true,
      size: 'm',
    })
    expect(check({count: 3.0, day: '2026-05-01T10:20Z', ok: 0}).day).toBe('2026-05-01T10:20:00Z')
    expect(check({day: '2026-05-01T10:20:30.5+0200'}).day).toBe('2026-05-01T10:20:30.5+02:00')
    expect(check({name: null, count: null, size: null})).toMatchObject({name: null, count: null, size: null})
  })

  it('reports every bad field at body.custom_field_data.SLUG with its type and message', () => {
    const body = issues({name: 'abcd', count: 1.5, day: 'soon', ok: 'maybe', size: 'l'})
    expect(body.error).toBe('PolarRequestValidationError')
    expect(body.detail.map((d) => [d.loc.join('.'), d.type, d.msg])).toEqual([
      ['body.custom_field_data.name', 'string_too_long', 'String should have at most 3 characters'],
      ['body.custom_field_data.count', 'int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
      ['body.custom_field_data.day', 'datetime_from_date_parsing', 'Input should be a valid datetime or date, input is too short'],
      ['body.custom_field_data.ok', 'bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
      ['body.custom_field_data.size', 'literal_error', "Input should be 's' or 'm'"],
    ])
    expect(issues({name: '', count: 'x', day: '2027-01-01'}).detail.map((d) => [d.type, d.msg])).toEqual([
      ['string_too_short', 'String should have at least 1 character'],
      ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
      ['less_than_equal', 'Input should be less than or equal to 2026-12-31'],
    ])
    expect(issues({name: 5, count: [], day: true}).detail.map((d) => d.type)).toEqual(['string_type', 'int_type', 'datetime_type'])
  })

  it('enforces required fields only when asked (a confirmation): present, not null, a checkbox ticked', () => {
    expect(check({}, true, false)).toEqual({name: null, count: null, day: null, ok: false, size: null})
    const body = issues({name: null, ok: false}, true, true)
    expect(body.detail.map((d) => [d.loc.at(-1), d.type, d.msg])).toEqual([
      ['name', 'string_type', 'Input should be a valid string'],
      ['count', 'missing', 'Field required'],
      ['day', 'missing', 'Field required'],
      ['ok', 'literal_error', 'Input should be True'],
      ['size', 'missing', 'Field required'],
    ])
    expect(check({name: 'a', count: 0, day: '2026-12-31', ok: true, size: 's'}, true, true)).toEqual({
      name: 'a',
      count: 0,
      day: '2026-12-31T00:00:00',
      ok: true,
      size: 's',
    })
  })
})
