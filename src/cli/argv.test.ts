import {describe, expect, it} from 'vitest'

import {globalsAfterCommand} from './argv.js'

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
