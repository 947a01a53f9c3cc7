import {describe, expect, it} from 'vitest'

import {ApiError, toTillError} from './errors.js'
import {ExitCode} from './till-error.js'

describe('toTillError', () => {
  it('says what an HTTP 431 means: headers too large, the token malformed (not "HTTP 431: HTTP 431")', () => {
    const error = toTillError(new ApiError(431, '', 'GET', 'https://api.example.com/v1/products/'), {
      profile: 'prod',
      environment: 'production',
      baseUrl: 'https://api.example.com/v1',
    })
    expect(error.message).toBe(
      `the API refused the request's headers as too large (HTTP 431): the token of profile "prod" (production, https://api.example.com/v1) is likely malformed`,
    )
    expect(error.exitCode).toBe(ExitCode.auth)
  })
})
