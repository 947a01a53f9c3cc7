import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {TillError} from '../../client/till-error.js'
import {AtomicFile} from './session.js'

describe('AtomicFile', () => {
  const folders: string[] = []
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-atomic-'))
    folders.push(dir)
    return dir
  }
  afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, {recursive: true, force: true})
  })

  it('replaces the file only at commit, with every piece written', () => {
    const dir = folder()
    const path = join(dir, 'catalog.yaml')
    writeFileSync(path, 'old\n')
    const file = new AtomicFile(path)
    file.write('version: 1\n')
    file.write('é'.repeat(70_000))
    expect(readFileSync(path, 'utf8')).toBe('old\n')
    file.commit()
    expect(readFileSync(path, 'utf8')).toBe(`version: 1\n${'é'.repeat(70_000)}`)
    expect(readdirSync(dir)).toEqual(['catalog.yaml'])
  })

  it('leaves the old file and no copy when abandoned, and writes an empty file when given nothing', () => {
    const dir = folder()
    const path = join(dir, 'catalog.yaml')
    writeFileSync(path, 'old\n')
    const file = new AtomicFile(path)
    file.write('half of it')
    file.abandon()
    expect(readFileSync(path, 'utf8')).toBe('old\n')
    expect(readdirSync(dir)).toEqual(['catalog.yaml'])
    const empty = new AtomicFile(join(dir, 'empty.yaml'))
    empty.commit()
    expect(readFileSync(join(dir, 'empty.yaml'), 'utf8')).toBe('')
  })

  it('fails with a usage error naming the file, and leaves no copy, when it cannot write', () => {
    const dir = folder()
    const path = join(dir, 'missing-folder', 'catalog.yaml')
    const file = new AtomicFile(path)
    let error: unknown
    try {
      file.write('text')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(TillError)
    expect((error as TillError).message).toContain(path)
    expect((error as TillError).exitCode).toBe(2)
    expect(existsSync(join(dir, 'missing-folder'))).toBe(false)
    expect(readdirSync(dir)).toEqual([])
  })
})
