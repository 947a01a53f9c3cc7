import {describe, expect, it} from 'vitest'

import {suggestCommands, synonymCommand} from './suggest.js'

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

  it("names till's verb for another command line's (show, view, ls, rm), before any spelling near the argument", () => {
    expect(suggestCommands('orders show 65bf564a', [...COMMANDS, 'orders get', 'orders create'])).toEqual(['orders get'])
    expect(suggestCommands('products ls', COMMANDS)).toEqual(['products list'])
    expect(suggestCommands('customers rm x', COMMANDS)).toEqual(['customers delete'])
    expect(synonymCommand('products view ID', COMMANDS)).toBe('products get')
    expect(synonymCommand('orders view ID', COMMANDS)).toBeUndefined()
  })
})
