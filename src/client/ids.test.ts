import {describe, expect, it} from 'vitest'

import {checkUuid, printable} from './ids.js'

describe('checkUuid', () => {
  it('accepts UUIDs with or without dashes', () => {
    expect(checkUuid('2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21', 'product id')).toBe('2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21')
    expect(checkUuid('2F6C1A7E4B9D4A579D3E1C0F5B8E7A21', 'product id')).toBe('2F6C1A7E4B9D4A579D3E1C0F5B8E7A21')
  })
  it.each([
    ['', /the product id is empty/],
    ['   ', /the product id is empty/],
    ['nope', /product id "nope": Input should be a valid UUID/],
    ['2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a2', /valid UUID/],
    ['../organizations/', /valid UUID/],
    ['a\u0007b', /"a\\u0007b"/],
  ])('refuses %j', (value, message) => {
    expect(() => checkUuid(value, 'product id')).toThrow(message)
  })
})

describe('printable', () => {
  it('escapes control bytes and cuts long values', () => {
    expect(printable('a\nb\u001b[31m')).toBe('a\\nb\\u001b[31m')
    expect(printable('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`)
  })
})
