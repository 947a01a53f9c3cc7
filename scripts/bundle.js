#!/usr/bin/env node
// Bundles the compiled CLI (dist/) with esbuild into one CommonJS file, dist/bundle/cli/till.cjs: the
// entry (cli/main.js), every command and hook, the autocomplete plugin's commands, the emulator and
// their dependencies (oclif, undici...). esbuild wraps each module that is first reached through a
// require or import() in a function run on first use, so a command runs only its own code. One file,
// because bin/run.js loads it with a V8 code cache of its own (src/cli/compile-cache.ts), made after a
// run, and ES modules, which the previous bundle was made of, cannot be.
// oclif finds each command through a one-line stub in dist/bundle/commands (package.json
// oclif.commands) that takes it from the bundle; the hooks likewise.
// `till/client` (dist/client) is the library build and is not bundled.
import {build} from 'esbuild'
import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {edits, shared, slimUndici} from './bundle-edits.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const out = join(dist, 'bundle')

/** The .js files below `dir` (test files left out), recursively: the commands to bundle. */
const jsFiles = (dir) =>
  readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return jsFiles(path)
    return e.name.endsWith('.js') && !e.name.endsWith('.test.js') ? [path] : []
  })

/**
 * The emulator (with ajv, for its contract mode) is a second bundle, dist/bundle/cli/emulator.cjs, of its own
 * entry (dist/emulator/bundle-entry.js): a quarter of the code, which a command that talks to a service never
 * runs, read and deserialized on every start when it was one file. The CLI reaches it only through the
 * emulator's entry, by import() (`till emulator start|reset`, the embedded emulator of a first run): each such
 * import becomes the module below, which loads that bundle with a code cache of its own (compile-cache.ts).
 * What both use from src/client is in both; an error the emulator throws is still a TillError to the CLI (the
 * class recognizes its instances by a brand, not by identity: till-error.ts).
 */
const emulatorDir = join(dist, 'emulator')
const emulatorBundle = join(out, 'cli', 'emulator.cjs')
const emulatorApart = {
  name: 'emulator-apart',
  setup(b) {
    b.onResolve({filter: /emulator[\\/]index\.js$/}, (args) => {
      const path = join(args.resolveDir, args.path)
      if (path !== join(emulatorDir, 'index.js') || args.importer.startsWith(emulatorDir)) return undefined
      return {path: 'emulator-bundle', namespace: 'till'}
    })
    b.onLoad({filter: /^emulator-bundle$/, namespace: 'till'}, () => ({
      resolveDir: join(dist, 'cli'),
      contents: `const {join} = require('node:path')
const {requireWithCache, runLabel} = require('./compile-cache.js')
const label = runLabel(process.argv.slice(2), join(__dirname, '..', 'run-manifests'))
module.exports = requireWithCache(join(__dirname, 'emulator.cjs'), 'emulator', process.env, label).exports`,
      loader: 'js',
    }))
  },
}

rmSync(out, {recursive: true, force: true})

/** Each command below `dir`: its key (its path below `dir`, no extension) and the module it is in. */
const commandsIn = (dir) => jsFiles(dir).map((file) => ({key: relative(dir, file).replace(/\.js$/, ''), file}))
// The commands a resource description derives (src/areas/derived/commands.ts): no file of their own.
const {RESOURCES} = await import(pathToFileURL(join(dist, 'client', 'resources', 'described.js')).href)
const derivedFile = join(dist, 'areas', 'derived', 'commands.js')
const derived = RESOURCES.flatMap((r) =>
  Object.keys(r.commands ?? {}).map((verb) => ({key: `${r.topic.split(' ').join('/')}/${verb}`, derive: [r.name, verb]})),
)
const commands = [
  ...commandsIn(join(dist, 'commands')),
  ...derived,
  // @oclif/plugin-autocomplete's commands, as till's own: a plugin is loaded from node_modules on every
  // run that may need it (its package.json, its manifest, its ES modules)
  ...commandsIn(join(root, 'node_modules', '@oclif', 'plugin-autocomplete', 'lib', 'commands')),
]
const hooks = [
  {key: 'cli/hooks/not-found', file: join(dist, 'cli', 'hooks', 'not-found.js')},
  {key: 'areas/completion/postrun', file: join(dist, 'areas', 'completion', 'postrun.js')},
  // not a hook, but loaded the same way (package.json oclif.helpClass)
  {key: 'cli/help', file: join(dist, 'cli', 'help.js')},
]
const duplicate = commands.find((c, i) => commands.findIndex((d) => d.key === c.key) !== i)
if (duplicate) throw new Error(`two commands are ${duplicate.key}: rename till's own (src/commands)`)

// The bundle's entry: main, and every command and hook behind a require (which esbuild makes lazy)
const entry = join(dist, 'cli', 'bundle-entry.js')
const loader = (list) =>
  list
    .map(({key, file, derive}) =>
      derive
        ? `  ${JSON.stringify(key)}: () => require(${JSON.stringify(derivedFile)}).derivedCommand(${derive.map((x) => JSON.stringify(x)).join(', ')}),`
        : `  ${JSON.stringify(key)}: () => require(${JSON.stringify(file)}),`,
    )
    .join('\n')
writeFileSync(
  entry,
  `// made by scripts/bundle.js
export {main} from './main.js'
const commands = {
${loader(commands)}
}
const hooks = {
${loader(hooks)}
}
/** A command's module (its key: its path below commands/, no extension). */
export const command = (key) => commands[key]()
export const hook = (key) => hooks[key]()
`,
)

const bundle = join(out, 'cli', 'till.cjs')
await build({
  ...shared,
  entryPoints: [entry],
  outfile: bundle,
  // import() becomes a require: code compiled through node:vm has no import() unless told a loader for it
  supported: {'dynamic-import': false},
  define: {'import.meta.url': '__tillModuleUrl'},
  banner: {js: 'const __tillModuleUrl = require("node:url").pathToFileURL(__filename).href;'},
  external: [
    // oclif reads tsconfig.json with TypeScript, and registers ts-node or tsx, only for a linked
    // development plugin: never at run time of an installed till.
    'typescript',
    'ts-node',
    'tsx',
    'tsx/*',
    // Large dependencies of a few commands, each with a CommonJS build, required from node_modules when
    // used: they would only make the bundle longer to read and, on a run without a cache, to compile
    // (the catalog file's zod and YAML, the prompts). The emulator has zod in its own bundle.
    'zod',
    '@inquirer/prompts',
    'yaml',
    // the MCP SDK, which only `till mcp` loads
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/sdk/*',
  ],
  plugins: [slimUndici, edits, emulatorApart],
})
await build({
  ...shared,
  entryPoints: [join(emulatorDir, 'index.js')],
  outfile: emulatorBundle,
  supported: {'dynamic-import': false},
  define: {'import.meta.url': '__tillModuleUrl'},
  banner: {js: 'const __tillModuleUrl = require("node:url").pathToFileURL(__filename).href;'},
  plugins: [slimUndici, edits],
})

// What bin/run.js loads first (src/cli/boot.ts), on its own: `till --version` answers with it alone
await build({
  ...shared,
  entryPoints: [join(dist, 'cli', 'boot.js')],
  outfile: join(out, 'cli', 'boot.cjs'),
  // Node's require of a file that names a source map loads Node's source map support, on every run
  sourcemap: false,
  // the keyring's binding is found from here (config/keyring.ts: createRequire takes a path as well as a URL)
  define: {'import.meta.url': '__filename'},
})

// ASCII only: bin/run.js reads it as latin1, which costs a tenth of decoding UTF-8 (a few characters of
// dependencies, in regular expressions, are written out as escapes; both mean the same character).
for (const file of [bundle, emulatorBundle]) {
  const text = readFileSync(file, 'utf8')
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  )
}

// The stubs oclif loads (CommonJS: a require of the bundle, which bin/run.js has already put in require's cache)
const stub = (path, call) => {
  mkdirSync(dirname(path), {recursive: true})
  writeFileSync(path, `module.exports = require(${JSON.stringify(relative(dirname(path), bundle).replace(/^(?!\.)/, './'))}).${call}\n`)
}
for (const {key} of commands) stub(join(out, 'commands', `${key}.cjs`), `command(${JSON.stringify(key)})`)
for (const {key} of hooks) stub(join(out, `${key}.cjs`), `hook(${JSON.stringify(key)})`)
