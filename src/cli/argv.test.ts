import {describe, expect, it} from 'vitest'

import {globalsAfterCommand, tokenAfterDashes} from './argv.js'

describe('globalsAfterCommand', () => {
  it('moves a leading profile flag after the command words', () => {
    expect(globalsAfterCommand(['-p', 'sandbox', 'subscriptions', 'list', '--active'])).toEqual(['subscriptions', 'list', '-p', 'sandbox', '--active'])
    expect(globalsAfterCommand(['--profile=prod', 'orders', 'get', 'x'])).toEqual(['orders', 'get', 'x', '--profile=prod'])
    expect(globalsAfterCommand(['-psandbox', 'products', 'list'])).toEqual(['products', 'list', '-psandbox'])
  })

  it('moves several globals, with and without values', () => {
    expect(globalsAfterCommand(['--debug', '-p', 'a', '--max-wait', '5', '--no-input', 'auth', 'status'])).toEqual([
      'auth',
      'status',
      '--debug',
      '-p',
      'a',
      '--max-wait',
      '5',
      '--no-input',
    ])
  })

  it('keeps an argv that starts with the command, or is only flags, as it is', () => {
    expect(globalsAfterCommand(['products', 'list', '-p', 'x'])).toEqual(['products', 'list', '-p', 'x'])
    expect(globalsAfterCommand(['-p', 'x'])).toEqual(['-p', 'x'])
    expect(globalsAfterCommand(['--version'])).toEqual(['--version'])
    expect(globalsAfterCommand([])).toEqual([])
  })

  it('leaves flags that are not global where they are', () => {
    expect(globalsAfterCommand(['--limit', '5', 'orders', 'list'])).toEqual(['--limit', '5', 'orders', 'list'])
    expect(globalsAfterCommand(['-p', 'x', '--limit', '5', 'orders', 'list'])).toEqual(['-p', 'x', '--limit', '5', 'orders', 'list'])
  })

  it('reads help COMMAND as COMMAND --help', () => {
    expect(globalsAfterCommand(['help'])).toEqual(['--help'])
    expect(globalsAfterCommand(['help', 'products', 'list'])).toEqual(['products', 'list', '--help'])
  })
})

describe('tokenAfterDashes', () => {
  const flags = new Set(['json', 'output', 'profile', 'max-wait', 'color', 'a-flag-with-a-long-name'])
  const token = '-O5EeSK3mNKfdeYR179GtuFKj32LCQBtoqCVUcoxqwk'

  it("moves a token that begins with '-' after --, wherever it is", () => {
    expect(tokenAfterDashes([token, '--json'], flags)).toEqual(['--json', '--', token])
    expect(tokenAfterDashes(['-o', 'json', token], flags)).toEqual(['-o', 'json', '--', token])
    // read by oclif as -o with the value X7…, were it not moved
    expect(tokenAfterDashes(['-oX7dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8'], flags)).toEqual(['--', '-oX7dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8'])
    expect(tokenAfterDashes(['--X7dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8'], flags)).toEqual(['--', '--X7dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8'])
  })

  it('leaves flags, short values, a plain token and a line with -- as they are', () => {
    expect(tokenAfterDashes(['3q2-Xv9dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8', '--json'], flags)).toEqual([
      '3q2-Xv9dY0s7kLmN4pQrStUvWxYz1a2B3c4D5e6F7g8',
      '--json',
    ])
    expect(tokenAfterDashes(['--a-flag-with-a-long-name', 'x', '--no-a-flag-with-a-long-name'], flags)).toEqual([
      '--a-flag-with-a-long-name',
      'x',
      '--no-a-flag-with-a-long-name',
    ])
    expect(tokenAfterDashes(['--profile=a-profile-with-a-long-name'], flags)).toEqual(['--profile=a-profile-with-a-long-name'])
    expect(tokenAfterDashes(['-ojson', '--unknown'], flags)).toEqual(['-ojson', '--unknown'])
    expect(tokenAfterDashes(['--', token], flags)).toEqual(['--', token])
  })
})
