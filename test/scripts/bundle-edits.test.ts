// The edits the bundle makes to its dependencies' files (scripts/bundle-edits.js): one whose text is not in
// its file, and one whose file the bundle does not reach (it moved), each fail the build, naming the edit.
import {copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build, type Plugin} from 'esbuild'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a build script, in JavaScript without declarations
import {edits, shared} from '../../scripts/bundle-edits.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** What the copied file requires stays out of the bundle: only that file is edited. */
const onlyEntry: Plugin = {
  name: 'only-entry',
  setup(b) {
    b.onResolve({filter: /.*/}, (args) => (args.kind === 'entry-point' ? undefined : {path: args.path, external: true}))
  },
}

describe("the bundle's edits of its dependencies", () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-bundle-edits-'))
  })
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  /** A copy of a dependency's file under `dir`'s node_modules, changed by `change`. */
  const copyOf = (file: string, change: (text: string) => string = (text) => text) => {
    const copy = join(dir, 'node_modules', file)
    mkdirSync(dirname(copy), {recursive: true})
    copyFileSync(join(root, 'node_modules', file), copy)
    writeFileSync(copy, change(readFileSync(copy, 'utf8')))
    return copy
  }
  const plugins = [onlyEntry, edits]
  const bundle = (entry: string) => build({...shared, entryPoints: [entry], write: false, sourcemap: false, logLevel: 'silent', plugins})

  it("fails the build when an edit's text is not in its file, naming the edit", async () => {
    const unlike = (text: string) => text.replace('require("node:child_process")', 'require("child_process")')
    const copy = copyOf('@oclif/core/lib/util/os.js', unlike)
    const named = /edit "lazy node:child_process in util\/os\.js" of @oclif\/core\/lib\/util\/os\.js did not apply/
    await expect(bundle(copy)).rejects.toThrow(named)
  })

  it('fails the build when a file with edits is not in the bundle (it moved), naming its edits', async () => {
    const error = await bundle(copyOf('@oclif/core/lib/util/os.js')).then(
      () => undefined,
      (e: Error) => e.message,
    )
    expect(error).toMatch(/edits not made \(their file is not in the bundle\): /)
    expect(error).toContain('"the manifest main.ts names" of @oclif/core/lib/config/plugin.js')
    // the edits of the file it bundled were made
    expect(error).not.toContain('of @oclif/core/lib/util/os.js')
  })
})
