#!/usr/bin/env node
// Bundles the compiled CLI (dist/) with esbuild into dist/bundle: the entry (cli/main.js) and one file
// per command, their shared code and dependencies (oclif, undici...) split into chunks, so that running
// one command opens a handful of files. oclif finds the commands there (package.json oclif.commands).
// `till/client` (dist/client) is the library build and is not bundled.
import {build} from 'esbuild'
import {readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const out = join(dist, 'bundle')

/** The .js files below `dir` (test files left out), recursively: the commands to bundle, then the bundle's own files. */
const jsFiles = (dir) =>
  readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return jsFiles(path)
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
 * Two changes to oclif's own files as they are bundled, each measured on a one-page command:
 * - it sorts a plugin's commands by id with localeCompare on every run; the first localeCompare of a
 *   process loads ICU's collation data (about 6 ms, 3% of the command). Command ids are lowercase ASCII
 *   words joined by ':' and '-', which code-point order sorts the same way.
 * - it loads child_process (for a Windows shell check) and readline (for reading piped stdin) on load,
 *   which Node then loads with their own dependencies (about 4 ms): they are loaded on first use instead.
 * - to tell WSL from Linux it imports wsl-utils, which loads child_process and PowerShell helpers; it
 *   only reads wsl-utils' isWsl, which is is-wsl's answer: is-wsl is asked directly.
 */
const OCLIF_EDITS = [
  {file: /config[\\/]plugin\.js$/, from: '.sort((a, b) => a.id.localeCompare(b.id))', to: '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))'},
  {file: /util[\\/]os\.js$/, from: 'require("node:child_process")', to: 'new Proxy({}, {get: (_, key) => require("node:child_process")[key]})'},
  {file: /util[\\/]os\.js$/, from: "(await import('wsl-utils')).isWsl", to: "(await import('is-wsl')).default"},
  {file: /parser[\\/]parse\.js$/, from: 'require("node:readline")', to: 'new Proxy({}, {get: (_, key) => require("node:readline")[key]})'},
]
const oclifEdits = {
  name: 'oclif-edits',
  setup(b) {
    b.onLoad({filter: /@oclif[\\/]core[\\/]lib[\\/].*\.js$/}, async (args) => {
      const edits = OCLIF_EDITS.filter((e) => e.file.test(args.path))
      if (edits.length === 0) return undefined
      let text = await readFile(args.path, 'utf8')
      for (const edit of edits) {
        if (!text.includes(edit.from)) throw new Error(`${args.path}: "${edit.from}" was not found (oclif changed): update scripts/bundle.js`)
        text = text.replace(edit.from, edit.to)
      }
      return {contents: text, loader: 'js'}
    })
  },
}

const BANNER = "import {createRequire as __tillCreateRequire} from 'node:module'; const require = __tillCreateRequire(import.meta.url);"

rmSync(out, {recursive: true, force: true})
const entries = [join(dist, 'cli', 'main.js'), join(dist, 'cli', 'hooks', 'not-found.js'), join(dist, 'areas', 'completion', 'postrun.js'), ...jsFiles(join(dist, 'commands'))]
const options = {
  // metafile paths below are relative to it
  absWorkingDir: root,
  entryPoints: entries.map((path) => ({in: path, out: relative(dist, path).replace(/\.js$/, '')})),
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies (oclif) call require(): give every file one bound to where it sits (taken out
  // again below from the files that never use it).
  banner: {js: BANNER},
  // oclif reads tsconfig.json with TypeScript, and registers ts-node or tsx, only for a linked
  // development plugin: never at run time of an installed till.
  external: ['typescript', 'ts-node', 'tsx', 'tsx/*'],
  plugins: [slimUndici, oclifEdits],
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
}

/**
 * The code every command runs (the command line's machinery, the client, their share of the areas) in
 * one chunk instead of the dozens of small ones esbuild would split it into by which commands use what:
 * each ES module file costs a command about 0.5 ms to load. Found by a first build: the modules of ours
 * in the files that a one-page list loads without a dynamic import; every entry then imports them.
 */
const first = await build({...options, write: false, metafile: true})
const staticFiles = (file, seen = new Set()) => {
  if (seen.has(file)) return seen
  seen.add(file)
  for (const i of first.metafile.outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) staticFiles(i.path, seen)
  return seen
}
const listFile = relative(root, join(out, 'commands', 'products', 'list.js'))
const core = [...staticFiles(listFile)].flatMap((file) => Object.keys(first.metafile.outputs[file].inputs)).filter((input) => /^dist\/(cli|client|areas)\//.test(input))
const coreFile = join(dist, 'cli', 'core-modules.js')
writeFileSync(coreFile, `// made by scripts/bundle.js\n${core.map((input) => `import '${relative(dirname(coreFile), join(root, input)).replace(/^(?!\.)/, './')}'`).join('\n')}\n`)
await build({...options, inject: [coreFile]})

// Most files never call require (a one-page command loads 34 files and 3 of them do): the banner's
// createRequire would cost each of the others a little start-up for nothing.
for (const file of jsFiles(out)) {
  const text = readFileSync(file, 'utf8')
  const rest = text.startsWith(BANNER) ? text.slice(BANNER.length) : null
  if (rest !== null && !/\brequire\b/.test(rest)) writeFileSync(file, rest.replace(/^\n/, ''))
}
