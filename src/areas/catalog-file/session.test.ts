import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {spawnSync} from 'node:child_process'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

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

  it('leaves no copy when the process exits before commit (a signal, an error elsewhere)', () => {
    const dir = folder()
    const path = join(dir, 'catalog.yaml')
    // the built module (a process of its own, which exits): dist/ beside src/ in the project's folder
    const module = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'areas', 'catalog-file', 'session.js')
    const script = `import(${JSON.stringify(pathToFileURL(module).href)}).then(({AtomicFile}) => { new AtomicFile(${JSON.stringify(path)}).write('half of it'); process.exit(3) })`
    const r = spawnSync(process.execPath, ['-e', script], {encoding: 'utf8'})
    expect(r.status, r.stderr).toBe(3)
    expect(readdirSync(dir)).toEqual([])
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
