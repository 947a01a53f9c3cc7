// The CLI and the emulator are bundled apart (scripts/bundle.js), so an error the emulator throws is made by
// another copy of till-error.ts: it must still be a TillError to the CLI, which reads its exit code and hint.
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {describe, expect, it} from 'vitest'

import {ExitCode, TillError} from '../../src/client/till-error.js'
import {RedirectError} from '../../src/client/client.js'

const built = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'client', 'till-error.js')).href

describe('TillError across copies of its module', () => {
  it('one made by another copy is a TillError, with its exit code and hint', async () => {
    const other = (await import(`${built}?copy`)) as typeof import('../../src/client/till-error.js')
    expect(other.TillError).not.toBe(TillError)
    const error = new other.TillError('the data file is damaged', ExitCode.usage, 'move it away')
    expect(error instanceof TillError).toBe(true)
    expect(error.exitCode).toBe(ExitCode.usage)
    expect(error.hint).toBe('move it away')
  })

  it('a plain error, or one merely named TillError, is not', () => {
    const named = Object.assign(new Error('x'), {name: 'TillError', exitCode: 2})
    expect(named instanceof TillError).toBe(false)
    expect(new Error('x') instanceof TillError).toBe(false)
    expect((null as unknown as object) instanceof TillError).toBe(false)
  })

  it('subclasses are told apart as usual', () => {
    const plain = new TillError('x')
    expect(plain instanceof RedirectError).toBe(false)
    const redirect = new RedirectError(301, 'POST', 'http://127.0.0.1/v1/products/', 'http://127.0.0.1/elsewhere')
    expect(redirect instanceof RedirectError).toBe(true)
    expect(redirect instanceof TillError).toBe(true)
  })
})
