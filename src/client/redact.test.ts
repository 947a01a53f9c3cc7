import {describe, expect, it} from 'vitest'

import {maskToken, redact} from './redact.js'

const oat = 'polar_oat_1tniy3uHBqw8IuISh2zdschCxATHgqoZghgJ23rqaem'
const cst = 'polar_cst_aLHpcT3a8D9vrtedpMhVGCmpOXX0fzjRsYiqo2KCJdu'

describe('redact', () => {
  it('masks every token in a line, whatever its kind', () => {
    const line = `GET /v1/x?customer_session_token=${cst} auth=${oat} secret=whsec_abcdefghijklmnopqrstuv`
    const out = redact(line)
    expect(out).not.toContain(oat.slice(10))
    expect(out).not.toContain(cst.slice(10))
    expect(out).not.toContain('abcdefghijklmnop')
    expect(out).toBe('GET /v1/x?customer_session_token=polar_cst_… auth=polar_oat_… secret=whsec_…')
  })

  it("masks a URL's user and password", () => {
    expect(redact('cannot reach the API at https://admin:s3cret@api.example.com/v1: refused')).toBe(
      'cannot reach the API at https://…@api.example.com/v1: refused',
    )
    expect(redact('GET http://tok@127.0.0.1:4010/v1/x')).toBe('GET http://…@127.0.0.1:4010/v1/x')
    expect(redact('mail ada@example.com at https://example.com/a@b')).toBe('mail ada@example.com at https://example.com/a@b')
  })

  it('leaves other text alone', () => {
    expect(redact('GET /v1/products/?limit=10 200')).toBe('GET /v1/products/?limit=10 200')
  })
})

describe('maskToken', () => {
  it('shows the prefix and three characters at each end', () => {
    expect(maskToken(oat)).toBe('polar_oat_1tn…aem')
  })

  it('hides short values entirely', () => {
    expect(maskToken('polar_oat_short')).toBe('polar_oat_…')
  })
})

describe('redact of percent-encoded tokens', () => {
  it('masks a token hidden behind percent escapes, in a query string or a path', () => {
    const encoded = oat.replaceAll('_', '%5F')
    expect(redact(`GET /v1/x?t=${encoded} 401`)).toBe('GET /v1/x?t=polar_oat_… 401')
    expect(
      redact(
        `GET /v1/${
          encodeURIComponent('polar_cst_') +
          'abcdefghijk'
            .split('')
            .map((c) => `%${c.charCodeAt(0).toString(16)}`)
            .join('')
        }`,
      ),
    ).toBe('GET /v1/polar_cst_…')
  })

  it('leaves other percent-encoded text as it was', () => {
    expect(redact('GET /v1/customers/?email=a%40example.com 200')).toBe('GET /v1/customers/?email=a%40example.com 200')
    expect(redact('GET /v1/x?q=%ZZ%5F')).toBe('GET /v1/x?q=%ZZ%5F')
  })
})
