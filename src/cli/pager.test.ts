import {describe, expect, it} from 'vitest'

import {longerThanScreen, pagerCommand} from './pager.js'

describe('pager', () => {
  it('TILL_PAGER first (empty: none), then PAGER, then less -FRX; cat is no pager', () => {
    expect(pagerCommand({})).toBe('less -FRX')
    expect(pagerCommand({PAGER: 'more'})).toBe('more')
    expect(pagerCommand({PAGER: 'more', TILL_PAGER: 'most'})).toBe('most')
    expect(pagerCommand({PAGER: 'more', TILL_PAGER: ''})).toBeUndefined()
    expect(pagerCommand({PAGER: 'cat'})).toBeUndefined()
  })

  it('pages only what is taller than the screen', () => {
    expect(longerThanScreen('a\nb\n', 2)).toBe(false)
    expect(longerThanScreen('a\nb\nc\n', 2)).toBe(true)
    expect(longerThanScreen('a\nb\nc\n', undefined)).toBe(false)
  })
})
