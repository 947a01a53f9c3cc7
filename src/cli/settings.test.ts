import {describe, expect, it} from 'vitest'

import {checkSettings, dropEmptySettings, escapeControls, isInternalError} from './settings.js'

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

describe('checkSettings', () => {
  it('accepts valid values and refuses the first invalid one, naming it', () => {
    expect(() => checkSettings({TILL_ENV: 'sandbox', TILL_DEBUG: 'Y', TILL_NO_INPUT: '0', TILL_TOKEN: 'polar_oat_x'})).not.toThrow()
    expect(() => checkSettings({TILL_DEBUG: 'maybe'})).toThrow(/^TILL_DEBUG must be one of 1, true, yes, y, 0, false, no, n, not "maybe"$/)
    expect(() => checkSettings({TILL_DEBUG: 'maybe'})).toThrow(expect.objectContaining({exitCode: 2}))
  })

  it('refuses a token with a line break as a credential (exit 4) without showing it', () => {
    let caught: unknown
    try {
      checkSettings({TILL_TOKEN: 'polar_oat_secret\n'})
    } catch (error) {
      caught = error
    }
    expect(caught).toMatchObject({exitCode: 4})
    expect((caught as Error).message).not.toContain('secret')
  })

  it('refuses a webhook secret with a carriage return as a usage error (exit 2) without showing it', () => {
    let caught: unknown
    try {
      checkSettings({TILL_WEBHOOK_SECRET: 'whsec_hiddenvalue\r'})
    } catch (error) {
      caught = error
    }
    expect(caught).toMatchObject({exitCode: 2})
    expect((caught as Error).message).toBe('TILL_WEBHOOK_SECRET is not valid: it has a space, line break or control character in it')
  })

  it('refuses a request deadline no timer holds (past 2147483 s, or under 1 ms)', () => {
    expect(() => checkSettings({TILL_REQUEST_DEADLINE: '2147483'})).not.toThrow()
    expect(() => checkSettings({TILL_REQUEST_DEADLINE: '0.001'})).not.toThrow()
    expect(() => checkSettings({TILL_REQUEST_DEADLINE: '2147484'})).toThrow(/^TILL_REQUEST_DEADLINE must be a number of seconds from 0.001 to 2147483/)
    expect(() => checkSettings({TILL_REQUEST_DEADLINE: '0.0004'})).toThrow(expect.objectContaining({exitCode: 2}))
  })
})

describe('escapeControls', () => {
  it('escapes control characters but keeps line breaks', () => {
    expect(escapeControls('a\u001b[2Jb\u0007c\r\nd')).toBe('a\\x1b[2Jb\\x07c\\x0d\nd')
  })
})
