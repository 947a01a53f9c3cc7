// The programs some tests need besides till: found where they are, or the tests skipped with a reason
// that names what is missing and how to get it.
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {ROOT} from './emulator.js'
import {chromiumTool, fish, zsh} from './tools.js'

const root = mkdtempSync(join(tmpdir(), 'till-tools-'))
afterAll(() => rmSync(root, {recursive: true, force: true}))

const program = (folder: string, name: string): string => {
  mkdirSync(folder, {recursive: true})
  const file = join(folder, name)
  writeFileSync(file, '#!/bin/sh\n')
  chmodSync(file, 0o755)
  return file
}

describe('programs the tests drive', () => {
  it('a missing zsh or fish skips its tests with the reason and the way to install it', () => {
    const empty = join(root, 'empty')
    mkdirSync(empty)
    for (const [found, name] of [
      [zsh({PATH: empty}), 'zsh'],
      [fish({PATH: empty}), 'fish'],
    ] as const) {
      expect(found.missing).toBe(true)
      expect(found.skipped).toContain(`(skipped: ${name} is not installed`)
      expect(found.skipped).toContain(`apt-get install ${name}`)
      expect(found.skipped).toContain('README.md')
    }
    expect(zsh({PATH: `${empty}:${join(root, 'shells')}`}).missing).toBe(true)
    const path = program(join(root, 'shells'), 'zsh')
    expect(zsh({PATH: `${empty}:${join(root, 'shells')}`})).toEqual({name: 'zsh', path, missing: false, skipped: ''})
  })

  it('Chromium is found on PATH under any of its names, or at CHROME_PATH', () => {
    const bin = join(root, 'bin')
    const chrome = program(bin, 'google-chrome')
    expect(chromiumTool({PATH: bin}).path).toBe(chrome)
    const chromium = program(bin, 'chromium-browser')
    expect(chromiumTool({PATH: bin}).path).toBe(chromium)
    const elsewhere = program(join(root, 'opt'), 'chrome')
    expect(chromiumTool({PATH: bin, CHROME_PATH: elsewhere}).path).toBe(elsewhere)
    const wrong = chromiumTool({PATH: bin, CHROME_PATH: join(root, 'nothing')})
    expect(wrong.missing).toBe(true)
    expect(wrong.skipped).toContain('CHROME_PATH=')
    const none = chromiumTool({PATH: join(root, 'empty')})
    expect(none.skipped).toMatch(/Chromium is not installed .*chromium, chromium-browser, google-chrome.*CHROME_PATH/)
  })

  it('no test names a fixed path for Chromium or runs zsh or fish without the check', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
    for (const file of [...files(join(ROOT, 'test')), ...files(join(ROOT, 'src'))].filter((f) => f.endsWith('.test.ts') && !f.endsWith('tools.test.ts'))) {
      const text = readFileSync(file, 'utf8')
      expect(text.includes("'/usr/bin/chromium'"), file).toBe(false)
      if (/execFileSync\('(zsh|fish)'/.test(text)) expect(text, file).toMatch(/(ZSH|FISH)\.missing/)
    }
  })
})
