import {describe, expect, it} from 'vitest'

import {needsPlugins} from './main.js'

describe('needsPlugins', () => {
  const own = new Set(['products', 'orders', 'api', 'autocomplete'])

  it("is false for a command line that starts with one of till's own words", () => {
    expect(needsPlugins(['products', 'list', '--limit', '3'], own)).toBe(false)
    expect(needsPlugins(['api', 'GET', '/products/'], own)).toBe(false)
    expect(needsPlugins(['orders', '--help'], own)).toBe(false)
  })

  it("is true for the plugin's own topic, the root help, no command, a flag first and an unknown word", () => {
    expect(needsPlugins(['autocomplete', 'bash'], own)).toBe(true)
    expect(needsPlugins(['--help'], own)).toBe(true)
    expect(needsPlugins([], own)).toBe(true)
    expect(needsPlugins(['-p', 'x'], own)).toBe(true)
    expect(needsPlugins(['autocompete'], own)).toBe(true)
  })
})
