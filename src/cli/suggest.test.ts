import {describe, expect, it} from 'vitest'

import {suggestCommands} from './suggest.js'

const COMMANDS = ['products list', 'products get', 'products create', 'orders list', 'customers list', 'customers delete', 'auth login']

describe('suggestCommands', () => {
  it('finds a mistyped topic or verb, nearest first', () => {
    expect(suggestCommands('prodcts list', COMMANDS)).toEqual(['products list'])
    expect(suggestCommands('customers lst', COMMANDS)[0]).toBe('customers list')
    expect(suggestCommands('ordrs lis', COMMANDS)).toEqual(['orders list'])
  })

  it('compares a command with as many words as it has: the rest are arguments', () => {
    expect(suggestCommands('auth logn some-argument', COMMANDS)).toEqual(['auth login'])
  })

  it("offers the topic's commands when the verb is nowhere near", () => {
    expect(suggestCommands('products frobnicate', COMMANDS)).toEqual(['products list', 'products get', 'products create'])
  })

  it('offers nothing for a word unlike any command', () => {
    expect(suggestCommands('zzzzzzzz', COMMANDS)).toEqual([])
  })
})
