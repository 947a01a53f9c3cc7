// Assertions on the service's error bodies (server/polar/exceptions.py).
import {expect} from 'vitest'

import type {ApiResponse} from './emulator.js'

/** The response for an assertion message: status and the start of the body. */
export const brief = (res: ApiResponse) => `${res.status} ${res.text.length > 300 ? `${res.text.slice(0, 300)}...` : res.text}`

export const INVALID_TOKEN_BODY = {
  error: 'invalid_token',
  error_description: 'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
}

/** Anonymous, or a valid token of the wrong kind, on a protected route. */
export function expectUnauthorized(res: ApiResponse): void {
  expect(res.status, brief(res)).toBe(401)
  expect(res.body).toEqual({error: 'Unauthorized', detail: 'Unauthorized'})
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="polar"')
}

/** A token that is unknown, expired, malformed or of an unknown kind. */
export function expectInvalidToken(res: ApiResponse): void {
  expect(res.status, brief(res)).toBe(401)
  expect(res.body).toEqual(INVALID_TOKEN_BODY)
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="polar"/)
  expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(res.headers.get('pragma')).toBe('no-cache')
}

/** `{"error":"ResourceNotFound","detail":...}` for an unknown (or other customer's) object. */
export function expectResourceNotFound(res: ApiResponse): void {
  expect(res.status, brief(res)).toBe(404)
  expect(res.body).toEqual({error: 'ResourceNotFound', detail: expect.any(String)})
}

/** A domain error `{"error": name, "detail": string}` with the given status. */
export function expectDomainError(res: ApiResponse, status: number, error: string, detail?: string): void {
  expect(res.status, brief(res)).toBe(status)
  expect(res.body).toEqual({error, detail: detail ?? expect.any(String)})
}

export type ValidationErrorName = 'RequestValidationError' | 'PolarRequestValidationError'

/**
 * A 422 with a `detail` list of `{type, loc, msg}`; when `loc` is given, one entry has exactly that
 * location (and that `type`, when given); with only `type`, one entry has that type.
 * Returns the matching entry, or the first.
 */
export function expectValidationError(
  res: ApiResponse,
  error: ValidationErrorName,
  loc?: Array<string | number>,
  type?: string,
): {type: string; loc: Array<string | number>; msg: string} {
  expect(res.status, brief(res)).toBe(422)
  expect(res.body.error, brief(res)).toBe(error)
  expect(Array.isArray(res.body.detail), brief(res)).toBe(true)
  expect(res.body.detail.length).toBeGreaterThan(0)
  for (const entry of res.body.detail) {
    expect(entry).toMatchObject({type: expect.any(String), loc: expect.any(Array), msg: expect.any(String)})
    for (const part of entry.loc) expect(['string', 'number']).toContain(typeof part)
  }
  if (!loc) {
    if (!type) return res.body.detail[0]
    const typed = res.body.detail.find((d: {type: string}) => d.type === type)
    expect(typed, `no detail entry of type ${type} in ${brief(res)}`).toBeDefined()
    return typed
  }
  const entry = res.body.detail.find((d: {loc: unknown[]}) => JSON.stringify(d.loc) === JSON.stringify(loc))
  expect(entry, `no detail entry at ${JSON.stringify(loc)} in ${brief(res)}`).toBeDefined()
  if (type) expect(entry.type, brief(res)).toBe(type)
  return entry
}
