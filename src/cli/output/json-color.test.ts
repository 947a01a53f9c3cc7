import {describe, expect, it} from 'vitest'

import {chalkFor} from './writers.js'
import {colorJson} from './json-color.js'

describe('colorJson', () => {
  const value = {id: 'a', n: 1.5, ok: true, none: null, list: [1, 'x', {}], empty: [], nested: {deep: {k: 'v'}}}

  it('without colour is JSON.stringify with 2 spaces', () => {
    expect(colorJson(value, chalkFor(false))).toBe(JSON.stringify(value, null, 2))
  })

  it('with colour: keys blue, strings green, numbers and booleans yellow, null dim; the same text under the colours', () => {
    const text = colorJson(value, chalkFor(true))
    expect(text).toContain('\x1b[34m"id"\x1b[39m: \x1b[32m"a"\x1b[39m')
    expect(text).toContain('\x1b[33m1.5\x1b[39m')
    expect(text).toContain('\x1b[33mtrue\x1b[39m')
    expect(text).toContain('\x1b[2mnull\x1b[22m')
    expect(text.replace(/\x1b\[\d+m/g, '')).toBe(JSON.stringify(value, null, 2))
  })

  it('writes what would act on the terminal in a key or a string as a \\u escape: the same JSON', () => {
    const hostile = {'k\u202e': 'Evil \u001b]52;c;aGk=\u0007 \u202egnp.exe \u009b2J'}
    const text = colorJson(hostile, chalkFor(false))
    expect(text).toBe('{\n  "k\\u202e": "Evil \\u001b]52;c;aGk=\\u0007 \\u202egnp.exe \\u009b2J"\n}')
    expect(JSON.parse(text)).toEqual(hostile)
  })
})
