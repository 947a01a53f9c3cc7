#!/usr/bin/env node
// Bundles the compiled CLI (dist/) with esbuild into dist/bundle: the entry (cli/main.js) and one file
// per command, their shared code and dependencies (oclif, undici...) split into chunks, so that running
// one command opens a handful of files. oclif finds the commands there (package.json oclif.commands).
// `till/client` (dist/client) is the library build and is not bundled.
import {build} from 'esbuild'
import {readdirSync, rmSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const out = join(dist, 'bundle')

const commands = (dir) =>
  readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return commands(path)
    return e.name.endsWith('.js') && !e.name.endsWith('.test.js') ? [path] : []
  })

/** `undici` as imported by src/client: only its Agent and request (see undici-slim.cjs), over HTTP/1.1. */
const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({filter: /^undici$/}, () => ({path: join(root, 'scripts', 'undici-slim.cjs')}))
    // HTTP/2 is never asked for (see undici-no-h2.cjs)
    b.onResolve({filter: /^\.\/client-h2\.js$/}, (args) => (/undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? {path: join(root, 'scripts', 'undici-no-h2.cjs')} : undefined))
  },
}

/**
 * oclif sorts a plugin's commands by id with localeCompare on every run; the first localeCompare of a
 * process loads ICU's collation data (about 6 ms measured here, 3% of a one-page command). Command ids
 * are lowercase ASCII words joined by ':' and '-', which code-point order sorts the same way.
 */
const plainSort = {
  name: 'oclif-plain-sort',
  setup(b) {
    b.onLoad({filter: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/}, async (args) => {
      const text = await readFile(args.path, 'utf8')
      const sorted = text.replace('.sort((a, b) => a.id.localeCompare(b.id))', '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))')
      if (sorted === text) throw new Error(`${args.path}: the command sort to replace was not found (oclif changed): update scripts/bundle.js`)
      return {contents: sorted, loader: 'js'}
    })
  },
}

rmSync(out, {recursive: true, force: true})
const entries = [join(dist, 'cli', 'main.js'), join(dist, 'cli', 'hooks', 'not-found.js'), join(dist, 'areas', 'completion', 'postrun.js'), ...commands(join(dist, 'commands'))]
await build({
  entryPoints: entries.map((path) => ({in: path, out: relative(dist, path).replace(/\.js$/, '')})),
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (oclif) call require(): give every file one bound to where it sits.
  banner: {js: "import {createRequire as __tillCreateRequire} from 'node:module'; const require = __tillCreateRequire(import.meta.url);"},
  // oclif reads tsconfig.json with TypeScript, and registers ts-node or tsx, only for a linked
  // development plugin: never at run time of an installed till.
  external: ['typescript', 'ts-node', 'tsx', 'tsx/*'],
  plugins: [slimUndici, plainSort],
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
