import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {checkReadableFile, checkWritableTarget, fsReason, isFsError, systemFileError} from './fs-problem.js'

const root = mkdtempSync(join(tmpdir(), 'till-fs-'))
mkdirSync(join(root, 'folder'))
writeFileSync(join(root, 'file.txt'), 'hello')
afterAll(() => rmSync(root, {recursive: true, force: true}))

const errno = (code: string, syscall: string, path?: string) => Object.assign(new Error(`${code}: raw`), {code, syscall, path})

describe('file errors in words', () => {
  it('says what went wrong without errno jargon, and names the file a temporary copy stood for', () => {
    expect(isFsError(errno('EISDIR', 'read'))).toBe(true)
    expect(isFsError(new Error('plain'))).toBe(false)
    expect(fsReason(errno('EACCES', 'open'))).toBe('permission denied')
    expect(systemFileError(errno('ENOENT', 'open', '/x/out.csv.1234.tmp')).message).toBe('cannot open /x/out.csv: no such file or folder')
    expect(systemFileError(errno('EISDIR', 'rename', 'report.html.partial-99')).message).toBe('cannot write report.html: it is a folder, not a file')
    expect(systemFileError(errno('EISDIR', 'read')).message).toBe('cannot read a file: it is a folder, not a file')
  })

  it('checks a target before any work: a missing folder, a folder given as the file', () => {
    expect(() => checkWritableTarget(join(root, 'out.csv'), '--file')).not.toThrow()
    expect(() => checkWritableTarget(join(root, 'nowhere', 'out.csv'), '--file')).toThrow(
      `--file ${join(root, 'nowhere', 'out.csv')}: the folder ${join(root, 'nowhere')} does not exist`,
    )
    expect(() => checkWritableTarget(join(root, 'folder'), '--out')).toThrow(`--out ${join(root, 'folder')} is a folder`)
    expect(() => checkWritableTarget(join(root, 'file.txt', 'x'), '--out')).toThrow('is not a folder')
  })

  it('checks an input file: its size, or why it cannot be read', () => {
    expect(checkReadableFile(join(root, 'file.txt'), 'hint')).toBe(5)
    expect(() => checkReadableFile(join(root, 'folder'), 'hint')).toThrow('it is a folder, not a file')
    expect(() => checkReadableFile(join(root, 'missing'), 'hint')).toThrow('no such file or folder')
    expect(() => checkReadableFile('/dev/null', 'hint')).toThrow('not a regular file')
    expect(checkReadableFile('/dev/null', 'hint', {streams: true})).toBeNull()
  })
})

describe('empty file names', () => {
  it('are refused naming the flag, before any work', () => {
    expect(() => checkWritableTarget('', '--out')).toThrow('--out needs a file name')
    expect(() => checkReadableFile(' ', 'hint')).toThrow('the file name is empty')
  })
})
