import {describe, expect, it} from 'vitest'

import {readRedirect} from './web-login.js'

const q = (fields: Record<string, string>) => new URLSearchParams(fields)

describe('readRedirect', () => {
  it('takes the code only with the state that was sent', () => {
    expect(readRedirect(q({code: 'polar_ac_x', state: 's'}), 's')).toEqual({code: 'polar_ac_x'})
    const forged = readRedirect(q({code: 'polar_ac_x', state: 'other'}), 's')
    expect('error' in forged && forged.error.message).toMatch(/did not carry the state till sent.*nothing was saved/)
    const missing = readRedirect(q({code: 'polar_ac_x'}), 's')
    expect('error' in missing && missing.error.exitCode).toBe(4)
  })

  it('names a denial, and any other error the service sent back', () => {
    const denied = readRedirect(q({error: 'access_denied', state: 's'}), 's')
    expect('error' in denied && denied.error.message).toBe('the sign-in was denied in the browser; nothing was saved')
    const scope = readRedirect(q({error: 'invalid_scope', error_description: 'bad', state: 's'}), 's')
    expect('error' in scope && scope.error.message).toBe('the service refused the sign-in: invalid_scope (bad); nothing was saved')
  })
})
