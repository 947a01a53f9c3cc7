import {describe, expect, it} from 'vitest'

import {assertSafeBaseUrl, isLoopbackHost, mayCarryCredentials} from './origin.js'

describe('mayCarryCredentials', () => {
  const base = 'https://api.polar.sh/v1'
  it.each([
    ['https://api.polar.sh/v1/products/', true],
    ['https://api.polar.sh:443/other', true],
    ['http://api.polar.sh/v1/products/', false],
    ['https://api.polar.sh:8443/v1/', false],
    ['https://files.polar.sh/x.pdf', false],
    ['https://api.polar.sh.evil.example/v1/', false],
    ['not a url', false],
  ])('%s -> %s', (url, expected) => {
    expect(mayCarryCredentials(url, base)).toBe(expected)
  })

  it('tells loopback addresses apart by host and port', () => {
    expect(mayCarryCredentials('http://127.0.0.1:8000/v1/x', 'http://127.0.0.1:8000/v1')).toBe(true)
    expect(mayCarryCredentials('http://127.0.0.2:8000/v1/x', 'http://127.0.0.1:8000/v1')).toBe(false)
    expect(mayCarryCredentials('http://127.0.0.1:8001/v1/x', 'http://127.0.0.1:8000/v1')).toBe(false)
  })
})

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.9.8.7', true],
    ['localhost', true],
    ['[::1]', true],
    ['10.0.0.1', false],
    ['api.polar.sh', false],
    ['127.0.0.1.example', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected)
  })
})

describe('assertSafeBaseUrl', () => {
  it('allows https anywhere and http on loopback', () => {
    expect(() => assertSafeBaseUrl('https://api.polar.sh/v1', 'x')).not.toThrow()
    expect(() => assertSafeBaseUrl('http://127.0.0.1:8000/v1', 'x')).not.toThrow()
    expect(() => assertSafeBaseUrl('http://localhost:8000/v1', 'x')).not.toThrow()
  })
  it('refuses http on another host, naming where the URL came from', () => {
    expect(() => assertSafeBaseUrl('http://api.example.com/v1', 'profile "prod"')).toThrow(/profile "prod" uses plain http:\/\/ on api.example.com/)
  })
})
