import {describe, expect, it} from 'vitest'

import {nestingDepth} from './json-depth.js'

describe('nestingDepth', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(nestingDepth(1, 10)).toBe(0)
    expect(nestingDepth({}, 10)).toBe(1)
    expect(nestingDepth({a: [1, {b: null}]}, 10)).toBe(3)
  })
  it('measures 100,000 levels without overflowing the stack, stopping past the limit', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    expect(nestingDepth(deep, 200)).toBe(201)
  })
})
