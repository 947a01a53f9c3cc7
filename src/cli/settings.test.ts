import {describe, expect, it} from 'vitest'

import {dropEmptySettings, isInternalError} from './settings.js'

describe('dropEmptySettings', () => {
  it('removes empty and blank TILL_* variables and leaves the rest', () => {
    const env: NodeJS.ProcessEnv = {TILL_ENV: '', TILL_TOKEN: '  ', TILL_PROFILE: 'prod', OTHER: '', PATH: '/bin'}
    dropEmptySettings(env)
    expect(env).toEqual({TILL_PROFILE: 'prod', OTHER: '', PATH: '/bin'})
  })
})

describe('isInternalError', () => {
  it('tells JavaScript errors from till errors', () => {
    expect(isInternalError(new TypeError('x'))).toBe(true)
    expect(isInternalError(new RangeError('x'))).toBe(true)
    expect(isInternalError(new Error('x'))).toBe(false)
    expect(isInternalError('x')).toBe(false)
  })
})
