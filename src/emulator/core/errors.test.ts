import {describe, expect, it} from 'vitest'

import {boundEcho, MAX_ECHO, requestValidation} from './errors.js'

describe('boundEcho', () => {
  it('keeps every input while the echoes fit the budget', () => {
    const detail = [
      {type: 'string_type', loc: ['body', 'a'], msg: 'Input should be a valid string', input: 5},
      {type: 'missing', loc: ['body', 'b'], msg: 'Field required'},
    ]
    expect(boundEcho(detail, 100)).toEqual(detail)
  })

  it('drops the input of the issues past the budget, keeping their type, loc and msg', () => {
    const big = 'x'.repeat(40)
    const detail = [0, 1, 2].map((i) => ({type: 'string_too_long', loc: ['body', i], msg: 'String should have at most 3 characters', input: big}))
    const bounded = boundEcho(detail, 100)
    expect(bounded.map((d) => 'input' in d)).toEqual([true, true, false])
    expect(bounded[2]).toEqual({type: 'string_too_long', loc: ['body', 2], msg: 'String should have at most 3 characters'})
  })

  it('bounds what a 422 built by requestValidation echoes to MAX_ECHO characters', () => {
    const value = 'y'.repeat(MAX_ECHO / 4)
    const detail = Array.from({length: 8}, (_, i) => ({type: 'value_error', loc: ['body', i], msg: 'bad', input: value}))
    const body = requestValidation(detail).body as {detail: Array<{input?: string}>}
    const echoed = body.detail.reduce((n, d) => n + (d.input === undefined ? 0 : JSON.stringify(d.input).length), 0)
    expect(echoed).toBeLessThanOrEqual(MAX_ECHO)
    expect(body.detail).toHaveLength(8)
  })
})
