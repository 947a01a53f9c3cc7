import {describe, expect, it} from 'vitest'

import {checkBlankIds, checkStdinDash} from './id-args.js'

describe('id arguments', () => {
  it('refuses - where the argument does not read ids from stdin, naming the command', () => {
    expect(() => checkStdinDash('-', 'Meter id.', 'meter id', 'meters:archive')).toThrow('"till meters archive" takes one meter id, not - (ids from stdin)')
    expect(() => checkStdinDash('-', 'Meter id, or - to read ids from stdin.', 'meter id', 'meters:get')).not.toThrow()
    expect(() => checkStdinDash('5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d', 'Meter id.', 'meter id', 'meters:archive')).not.toThrow()
  })

  it('refuses a blank client id, key id or key, and leaves other arguments alone', () => {
    expect(() => checkBlankIds({'client-id': ' '})).toThrow('the client id is empty')
    expect(() => checkBlankIds({keyId: ''})).toThrow('the key id is empty')
    expect(() => checkBlankIds({key: ''})).toThrow('the key is empty')
    expect(() => checkBlankIds({event: '', id: ''})).not.toThrow()
  })
})
