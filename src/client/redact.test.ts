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
