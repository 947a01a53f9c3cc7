import {describe, expect, it} from 'vitest'

import {checkQueryFlag, looksLikeJqFilter} from './query-flag.js'

describe('a jq filter given to -q/--query', () => {
  it('reads jq filters as filters', () => {
    for (const filter of ['.', '.[]', '.[].id', '.[0].name', '.items', '.name | ascii_downcase', 'x | select(.a)', '.a.b']) {
      expect(looksLikeJqFilter(filter), filter).toBe(true)
    }
  })

  it('leaves text searches alone, dots and pipes in words included', () => {
    for (const text of ['pro', 'acme.com', 'Pro plan', 'v1.2', '.NET Course', 'a|b', 'Lite | Pro']) {
      expect(looksLikeJqFilter(text), text).toBe(false)
    }
  })

  it('refuses a filter naming the pipe to jq, and takes a search', () => {
    expect(() => checkQueryFlag({query: '.[].id'}, 'products:list')).toThrow(
      `-q/--query is till products list's text search, and ".[].id" reads as a jq filter (gh's -q)`,
    )
    expect(() => checkQueryFlag({query: 'widget'}, 'products:list')).not.toThrow()
    expect(() => checkQueryFlag({}, 'products:list')).not.toThrow()
  })
})
