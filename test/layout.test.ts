// The shape of the source tree: no source file over 400 lines, and the emulator's core apart from its
// resources (the core imports no resource; every resource folder is one line of resources/index.ts).
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {RESOURCES, type ResourceDescription} from '../src/client/resources/described.js'
import {ROOT} from './helpers/emulator.js'

const SRC = join(ROOT, 'src')
const EMULATOR = join(SRC, 'emulator')
/** Generated files, read by the compiler rather than by people: the wire types (`npm run wire-types`, checked by test/wire-types.test.ts). */
const GENERATED = new Set(['src/client/wire/openapi.ts'])

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : []
  })
}

/** Every module specifier a file imports, statically, with `import()` or as a module augmentation. */
const specifiers = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|declare\s+module\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!)

/** The relative modules a file imports, type-only imports included (a circle of types is a circle all the same). */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:import|export)\s+[^'";]*?from\s+['"](\.[^'"]+)['"]/gm), ...text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) =>
    join(file, '..', m[1]!.replace(/\.js$/, '.ts')),
  )
}

/** Each set of files that import one another in a circle (strongly connected components of two or more). */
function importLoops(all: string[]): string[][] {
  const graph = new Map(all.map((f) => [f, relativeImports(f).filter((d) => d !== f)]))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const loops: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const loop: string[] = []
      let w: string
      do {
        w = stack.pop()!
        loop.push(relative(ROOT, w))
      } while (w !== v)
      if (loop.length > 1) loops.push(loop)
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return loops
}

describe('source layout', () => {
  it('no file under src imports a file that imports it back, directly or in a circle', () => {
    expect(importLoops(files(SRC).filter((f) => !f.endsWith('.test.ts')))).toEqual([])
  })

  it('oclif.manifest.json is what the build writes: commands in id order, so a build leaves a clean clone clean', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
    const ids = Object.keys(manifest.commands)
    expect(ids).toEqual([...ids].sort())
    const commands = join(SRC, 'commands')
    const sources = files(commands)
      .filter((f) => !f.endsWith('.test.ts'))
      .map((f) =>
        relative(commands, f)
          .replace(/\.ts$/, '')
          .replace(/\/index$/, '')
          .replaceAll('/', ':'),
      )
    // and the commands the resource descriptions derive (src/areas/derived/commands.ts), which have no file
    const derived = RESOURCES.flatMap((r: ResourceDescription) => Object.keys(r.commands ?? {}).map((verb) => `${r.topic.replaceAll(' ', ':')}:${verb}`))
    const own = (list: string[]) => list.filter((id) => !id.startsWith('autocomplete')).sort()
    expect(own(ids)).toEqual(own([...sources, ...derived]))
  })

  it('no .ts file under src is over 400 lines, generated files apart', () => {
    const long = files(SRC)
      .filter((file) => !GENERATED.has(relative(ROOT, file)))
      .map((file) => ({file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1}))
      .filter((f) => f.lines > 400)
    expect(long).toEqual([])
  })

  it('src/emulator/core imports nothing from the resources or the emulator entry, only the core and the client', () => {
    const offences: string[] = []
    for (const file of files(join(EMULATOR, 'core'))) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue
        const target = join(file, '..', spec)
        if (!target.startsWith(join(EMULATOR, 'core')) && !target.startsWith(join(SRC, 'client'))) offences.push(`${relative(ROOT, file)} imports ${spec}`)
      }
    }
    expect(offences).toEqual([])
  })

  it('every resource folder has an index (and routes, unless the index holds them), and is listed once in resources/index.ts', () => {
    const dir = join(EMULATOR, 'resources')
    const folders = readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory())
    expect(folders.length).toBeGreaterThanOrEqual(12)
    const index = readFileSync(join(dir, 'index.ts'), 'utf8')
    const listed = specifiers(index)
      .filter((s) => s.endsWith('/index.js'))
      .map((s) => s.replace(/^\.\//, '').replace(/\/index\.js$/, ''))
    expect(listed.sort()).toEqual([...folders].sort())
    for (const name of folders) {
      const own = readdirSync(join(dir, name))
      expect(own, name).toContain('index.ts')
      // a small resource may be one file: its index registers its routes itself
      if (!own.includes('routes.ts')) expect(readFileSync(join(dir, name, 'index.ts'), 'utf8'), name).toMatch(/export function register\(/)
    }
  })

  it('a resource model adds its collections to the store by augmenting the core EnvData, which names no resource collection', () => {
    const core = readFileSync(join(EMULATOR, 'core', 'model.ts'), 'utf8')
    expect(core.match(/\b\w+Record\[\]/g)).toEqual(['TokenRecord[]'])
    const models = files(join(EMULATOR, 'resources')).filter((file) => file.endsWith('/model.ts'))
    expect(models.length).toBeGreaterThanOrEqual(10)
    for (const file of models) {
      const text = readFileSync(file, 'utf8')
      expect(text, relative(ROOT, file)).toContain("declare module '../../core/model.js'")
      expect(text, relative(ROOT, file)).toMatch(/export const collections = /)
    }
  })
})
