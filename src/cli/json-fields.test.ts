import {describe, expect, it} from 'vitest'

import {jsonFieldsToColumns} from './json-fields.js'

const list = {flags: {columns: {type: 'option'}, limit: {type: 'option', char: 'L'}, all: {type: 'boolean'}}, args: 0}
const get = {...list, args: 1}
const ingest = {flags: {name: {type: 'option'}}, args: 1}

describe('jsonFieldsToColumns (gh --json FIELDS)', () => {
  it('moves a field list after --json to --columns', () => {
    expect(jsonFieldsToColumns(['--json', 'id,status'], list)).toEqual(['--json', '--columns', 'id,status'])
    expect(jsonFieldsToColumns(['--limit', '3', '--json=id'], list)).toEqual(['--limit', '3', '--json', '--columns', 'id'])
    expect(jsonFieldsToColumns(['-L', '3', '--json', 'name'], list)).toEqual(['-L', '3', '--json', '--columns', 'name'])
    expect(jsonFieldsToColumns(['--json', 'id', 'ID'], get)).toEqual(['--json', '--columns', 'id', 'ID'])
  })

  it("leaves a bare --json, a flag's value and a command's argument alone", () => {
    expect(jsonFieldsToColumns(['--json'], list)).toEqual(['--json'])
    expect(jsonFieldsToColumns(['--json', '--all'], list)).toEqual(['--json', '--all'])
    expect(jsonFieldsToColumns(['ID', '--json'], get)).toEqual(['ID', '--json'])
    expect(jsonFieldsToColumns(['--json', 'events.jsonl'], ingest)).toEqual(['--json', 'events.jsonl'])
    expect(jsonFieldsToColumns(['--json', '0b6c3a2e-1f4d-4c8e-9a7b-5d2e1f0c9b8a'], get)).toEqual(['--json', '0b6c3a2e-1f4d-4c8e-9a7b-5d2e1f0c9b8a'])
    expect(jsonFieldsToColumns(['--', '--json', 'id'], list)).toEqual(['--', '--json', 'id'])
  })

  it('refuses fields twice, fields a command cannot pick, and a list that is not one', () => {
    expect(() => jsonFieldsToColumns(['--json', 'id', '--columns', 'status'], list)).toThrow(/both choose the fields/)
    expect(() => jsonFieldsToColumns(['--json', 'a,b'], ingest)).toThrow(/prints its own JSON/)
    expect(() => jsonFieldsToColumns(['--json=a b'], list)).toThrow(/comma-separated list of fields/)
  })
})
