import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {readOwnFile, readOwnText} from './own-file.js'

const dir = mkdtempSync(join(tmpdir(), 'till-own-file-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

describe('readOwnFile', () => {
  it('reads a regular file whole', () => {
    writeFileSync(join(dir, 'ok.json'), '{"a":1}')
    expect(readOwnText(join(dir, 'ok.json'), 100)).toBe('{"a":1}')
  })

  it('refuses a FIFO at once, without waiting for a writer', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')])
    const started = Date.now()
    expect(() => readOwnFile(join(dir, 'fifo'), 100)).toThrow(expect.objectContaining({code: 'EFTYPE', message: 'it is a FIFO (named pipe), not a file'}))
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('refuses a link to /dev/zero (a device, which never ends), a folder, and a file larger than its limit', () => {
    symlinkSync('/dev/zero', join(dir, 'zero'))
    expect(() => readOwnFile(join(dir, 'zero'), 100)).toThrow(expect.objectContaining({code: 'EFTYPE', message: 'it is a device, not a file'}))
    mkdirSync(join(dir, 'folder'))
    expect(() => readOwnFile(join(dir, 'folder'), 100)).toThrow(expect.objectContaining({code: 'EISDIR'}))
    writeFileSync(join(dir, 'big'), Buffer.alloc(101))
    expect(() => readOwnFile(join(dir, 'big'), 100)).toThrow(expect.objectContaining({code: 'EFBIG'}))
    expect(() => readOwnFile(join(dir, 'missing'), 100)).toThrow(expect.objectContaining({code: 'ENOENT'}))
  })
})
