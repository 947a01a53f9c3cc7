import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {entryToReadAhead} from './keyring-prefetch.js'

describe('entryToReadAhead', () => {
  const dir = mkdtempSync(join(tmpdir(), 'till-read-ahead-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      active: 'kr',
      profiles: {
        kr: {environment: 'production', token_store: 'keyring', keyring: {account: 'kr@12345678', holds: 'token'}},
        other: {environment: 'sandbox', token_store: 'keyring', keyring: {account: 'other@12345678', holds: 'oauth'}},
        file: {environment: 'sandbox', token_store: 'file', token: 'polar_oat_x'},
        local: {environment: 'local'},
      },
    }),
  )
  const env = {TILL_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nowhere'}

  it("names the keyring entry of the profile the command line uses: the flag's, TILL_PROFILE's, else the active one", () => {
    expect(entryToReadAhead(['products', 'list'], env)).toBe('kr@12345678')
    expect(entryToReadAhead(['orders', 'list', '--all', '-p', 'other'], env)).toBe('other@12345678')
    expect(entryToReadAhead(['-p', 'other', 'orders', 'list'], env)).toBe('other@12345678')
    expect(entryToReadAhead(['orders', 'list', '--profile=other'], env)).toBe('other@12345678')
    expect(entryToReadAhead(['orders', 'list', '-pother'], env)).toBe('other@12345678')
    expect(entryToReadAhead(['auth', 'status'], {...env, TILL_PROFILE: 'other'})).toBe('other@12345678')
  })

  it('names none where the command would not read one, or reads it from elsewhere', () => {
    // a token in the file, no token, a profile that is not there
    for (const profile of ['file', 'local', 'missing', '__proto__']) expect(entryToReadAhead(['products', 'list', '-p', profile], env)).toBeUndefined()
    // TILL_TOKEN comes first; no D-Bus, no Secret Service
    expect(entryToReadAhead(['products', 'list'], {...env, TILL_TOKEN: 'polar_oat_y'})).toBeUndefined()
    expect(entryToReadAhead(['products', 'list'], {TILL_CONFIG_DIR: dir, XDG_RUNTIME_DIR: dir})).toBeUndefined()
    // help, the emulator, profiles and signing in read no stored token
    for (const argv of [['--help'], ['products', 'list', '--help'], ['emulator', 'start'], ['profiles', 'list'], ['auth', 'login'], []])
      expect(entryToReadAhead(argv, env), argv.join(' ')).toBeUndefined()
    // no config file, or one that is not JSON
    expect(entryToReadAhead(['products', 'list'], {...env, TILL_CONFIG_DIR: join(dir, 'none')})).toBeUndefined()
    const broken = mkdtempSync(join(tmpdir(), 'till-read-ahead-'))
    writeFileSync(join(broken, 'config.json'), '{not json')
    expect(entryToReadAhead(['products', 'list'], {...env, TILL_CONFIG_DIR: broken})).toBeUndefined()
    rmSync(broken, {recursive: true, force: true})
  })
})
