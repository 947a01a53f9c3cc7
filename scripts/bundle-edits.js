// What every bundle of till is built with (scripts/bundle.js; the benchmark's floor program, bench/floor):
// esbuild's options, only undici's Agent and request, and the edits made to oclif's, undici's and
// find-my-way's own files as they are bundled, each with its reason.
import {readdirSync, readFileSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** `undici` as imported by src/client: only its Agent and request (see undici-slim.cjs), over HTTP/1.1. */
export const slimUndici = {
  name: 'slim-undici',
  setup(b) {
    b.onResolve({filter: /^undici$/}, () => ({path: join(root, 'scripts', 'undici-slim.cjs')}))
    // HTTP/2 is never asked for (see undici-no-h2.cjs)
    b.onResolve({filter: /^\.\/client-h2\.js$/}, (args) =>
      /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? {path: join(root, 'scripts', 'undici-no-h2.cjs')} : undefined,
    )
  },
}

/**
 * Changes to oclif's and undici's own files as they are bundled, each worth a millisecond or more of a
 * one-page command's CPU time (bench/README.md, "What each edit of the bundle is worth"): Node modules
 * loaded on load but used only on some paths are loaded on first use instead: oclif's child_process (a
 * Windows shell check); undici's http (for `http.maxHeaderSize` when a client is made without one, and a
 * check in destroy()).
 */
const lazy = (name) => `new Proxy({}, {get: (_, key) => require("${name}")[key]})`
/** A module's default export (TypeScript's __importDefault of it), loaded on first use. */
const lazyDefault = (name) => `{get default() { const m = require("${name}"); return m && m.__esModule ? m.default : m }}`
/**
 * oclif's modules that a command's run does not use, loaded on first use instead (each edit is `file`,
 * the variable, the module): help (for a help error), the error box's wrapping, the spinner (a terminal's
 * progress), the glob and pattern matchers and the rc file reader (plugins without a manifest), and
 * fs/promises for TypeScript sources.
 */
const LAZY_OCLIF = [
  ['errors/errors/cli.js', 'const wrap_ansi_1 = __importDefault(require("wrap-ansi"));', 'wrap_ansi_1', 'wrap-ansi', true],
  ['errors/errors/pretty-print.js', 'const wrap_ansi_1 = __importDefault(require("wrap-ansi"));', 'wrap_ansi_1', 'wrap-ansi', true],
  ['config/plugin-loader.js', 'const minimatch_1 = require("minimatch");', 'minimatch_1', 'minimatch', false],
  ['config/plugin.js', 'const tinyglobby_1 = require("tinyglobby");', 'tinyglobby_1', 'tinyglobby', false],
  ['util/read-pjson.js', 'const lilconfig_1 = require("lilconfig");', 'lilconfig_1', 'lilconfig', false],
  ['ux/index.js', 'const spinner_1 = __importDefault(require("./action/spinner"));', 'spinner_1', './action/spinner', true],
  ['index.js', 'var help_1 = require("./help");', 'help_1', './help', false],
  // fs/promises (slow to load, with readline and the file watchers) for TypeScript sources only
  ['config/ts-path.js', 'const promises_1 = require("node:fs/promises");', 'promises_1', 'node:fs/promises', false],
  ['util/read-tsconfig.js', 'const promises_1 = require("node:fs/promises");', 'promises_1', 'node:fs/promises', false],
  ['parser/index.js', 'var help_1 = require("./help");', 'help_1', './help', false],
  ['flags.js', 'const help_1 = require("./help");', 'help_1', './help', false],
].map(([file, from, variable, name, isDefault]) => ({
  name: `lazy ${name} in ${file}`,
  file: `@oclif/core/lib/${file}`,
  from,
  to: `${from.startsWith('var') ? 'var' : 'const'} ${variable} = ${isDefault ? lazyDefault(name) : lazy(name)};`,
}))
const EDITS = [
  ...LAZY_OCLIF,
  // oclif reads its manifest and package files with fs/promises, whose first load costs start-up time (it
  // brings readline and the file watchers with it); a read of a small file is as fast done at once
  {
    name: 'manifest and package files read at once',
    file: '@oclif/core/lib/util/fs.js',
    from: 'const promises_1 = require("node:fs/promises");',
    to: 'const promises_1 = {stat: async (path) => node_fs_1.statSync(path), readFile: async (path, options) => node_fs_1.readFileSync(path, options)};',
  },
  {
    name: 'lazy node:child_process in util/os.js',
    file: '@oclif/core/lib/util/os.js',
    from: 'require("node:child_process")',
    to: lazy('node:child_process'),
  },
  // The manifest a run reads: main.ts may name a smaller one for a command's run (scripts/sort-manifest.js)
  {
    name: 'the manifest main.ts names',
    file: '@oclif/core/lib/config/plugin.js',
    from: 'const manifest = await (0, fs_1.readJson)(p);',
    to: 'const manifest = await (0, fs_1.readJson)(globalThis.__tillManifest?.(p) ?? p);',
  },
  {
    name: 'lazy node:http in core/util.js',
    file: 'undici/lib/core/util.js',
    from: "const { IncomingMessage } = require('node:http')",
    to: `const lazyHttp = ${lazy('node:http')}`,
  },
  {
    name: 'lazy IncomingMessage in core/util.js',
    file: 'undici/lib/core/util.js',
    from: '.constructor === IncomingMessage)',
    to: '.constructor === lazyHttp.IncomingMessage)',
  },
  {
    name: 'lazy node:http in dispatcher/client.js',
    file: 'undici/lib/dispatcher/client.js',
    from: "const http = require('node:http')",
    to: `const http = ${lazy('node:http')}`,
  },
  {
    name: 'max header size on first use',
    file: 'undici/lib/dispatcher/client.js',
    from: 'const getDefaultNodeMaxHeaderSize = http &&',
    to: 'const getDefaultNodeMaxHeaderSize = () => getMaxHeaderSize()()\nconst getMaxHeaderSize = () => http &&',
  },
]
/**
 * find-my-way, the emulator's router, writes a function's source and compiles it (new Function) for each
 * path segment and route it adds: code that no code cache keeps, compiled on every start of
 * the emulator. These are the same checks as closures.
 */
const ROUTER_EDITS = [
  {
    name: 'prefix match as a closure',
    file: 'find-my-way/lib/node.js',
    from: 'function compilePrefixMatch (prefix) {\n',
    to: 'function compilePrefixMatch (prefix) {\n  if (prefix.length > 1) return function matchPrefix (path, i) { return path.startsWith(prefix, i) }\n',
  },
  {
    name: 'params object as a closure',
    file: 'find-my-way/lib/handler-storage.js',
    from: '  _compileCreateParamsObject (params) {\n',
    to: `  _compileCreateParamsObject (params) {
    const names = [...params]
    return function _createParamsObject (param0, param1, param2, param3, extraParams) {
      const values = new NullObject()
      for (let i = 0; i < names.length; i++) {
        values[names[i]] =
          i === 0 ? param0 : i === 1 ? param1 : i === 2 ? param2 : i === 3 ? param3 : extraParams[i - 4]
      }
      return values
    }
`,
  },
]
EDITS.push(...ROUTER_EDITS)

/** The packages whose files are edited, each pinned to one version in package.json. */
const EDITED = ['@oclif/core', '@oclif/plugin-autocomplete', 'undici', 'find-my-way']

/** The edited package a file in node_modules belongs to, and the file as `<package>/<path>` with '/'. */
function packageFile(path) {
  const normal = path.split('\\').join('/')
  for (const pkg of EDITED) {
    const at = normal.lastIndexOf(`node_modules/${pkg}/`)
    if (at !== -1) return {pkg, file: `${pkg}/${normal.slice(at + `node_modules/${pkg}/`.length)}`}
  }
  return undefined
}

/**
 * The hunks of a unified diff of files in node_modules (`+++ b/node_modules/<package>/<path>`), each an
 * edit of its file's text: its context and removed lines, replaced by its context and added lines.
 */
export function parsePatch(patchName, text) {
  const hunks = []
  let file
  let hunk
  for (const line of text.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = packageFile(line.slice(4).trim())?.file
      if (file === undefined) throw new Error(`patches/${patchName}: ${line} is not a file of ${EDITED.join(', ')}`)
      hunk = undefined
    } else if (line.startsWith('@@')) {
      hunk = {name: `${patchName} (hunk ${hunks.length + 1})`, file, from: [], to: []}
      hunks.push(hunk)
    } else if (hunk && /^[ +-]/.test(line)) {
      if (line[0] !== '+') hunk.from.push(line.slice(1))
      if (line[0] !== '-') hunk.to.push(line.slice(1))
    }
  }
  return hunks.map((h) => ({...h, from: `${h.from.join('\n')}\n`, to: `${h.to.join('\n')}\n`}))
}

/**
 * Behaviour changes to oclif and its autocomplete plugin: unified diffs in patches/, each with the report
 * for its upstream beside it (patches/<name>.md), made to the file's text as it is bundled.
 */
const PATCHES = readdirSync(join(root, 'patches'))
  .filter((name) => name.endsWith('.patch'))
  .sort()
  .flatMap((name) => parsePatch(name, readFileSync(join(root, 'patches', name), 'utf8')))
EDITS.push(...PATCHES)
for (const edit of EDITS) edit.pkg = EDITED.find((pkg) => edit.file.startsWith(`${pkg}/`))

/**
 * The text of `path` with every edit of its file made, or undefined when it has none. An edit whose text is
 * not in the file fails, naming the edit: the dependency changed, and the edit must be made again or go.
 * `applied` collects the names of the edits made.
 */
export function applyEdits(path, text, applied = new Set()) {
  const file = packageFile(path)?.file
  const mine = EDITS.filter((e) => e.file === file)
  if (mine.length === 0) return undefined
  let edited = text
  for (const edit of mine) {
    if (!edited.includes(edit.from)) {
      throw new Error(
        `edit "${edit.name}" of ${edit.file} did not apply: its text is not in ${path} (the dependency changed): ` +
          'update scripts/bundle-edits.js or patches/',
      )
    }
    edited = edited.replace(edit.from, edit.to)
    applied.add(edit.name)
  }
  return edited
}

/**
 * Makes the edits as files are bundled, and fails the build when an edit of a package the build bundles
 * was not made: its file moved or was renamed, or the build no longer reaches it.
 */
export const edits = {
  name: 'edits',
  setup(b) {
    const applied = new Set()
    const bundled = new Set()
    b.onLoad({filter: /(@oclif[\\/]core|@oclif[\\/]plugin-autocomplete|undici|find-my-way)[\\/]lib[\\/].*\.js$/}, async (args) => {
      const pkg = packageFile(args.path)?.pkg
      if (pkg === undefined) return undefined
      bundled.add(pkg)
      const text = applyEdits(args.path, await readFile(args.path, 'utf8'), applied)
      return text === undefined ? undefined : {contents: text, loader: 'js'}
    })
    b.onEnd((result) => {
      if (result.errors.length > 0) return
      const missed = EDITS.filter((e) => !applied.has(e.name) && bundled.has(e.pkg))
      if (missed.length > 0) {
        const names = missed.map((e) => `"${e.name}" of ${e.file}`).join(', ')
        const fix = 'update scripts/bundle-edits.js or patches/'
        throw new Error(`edits not made (their file is not in the bundle): ${names}: ${fix}`)
      }
    })
    // undici and find-my-way (the emulator's router) check their own invariants with node:assert (5 Node
    // modules to load): a check that holds costs nothing to make without it, and one that fails is handed
    // to node:assert (assert-lite.cjs)
    b.onResolve({filter: /^node:assert$/}, (args) =>
      /undici[\\/]lib|find-my-way[\\/]/.test(args.importer) ? {path: join(root, 'scripts', 'assert-lite.cjs')} : undefined,
    )
    // oclif's debug logging: loaded only when DEBUG is set (debug-lite.cjs)
    b.onResolve({filter: /^debug$/}, (args) => (/debug-lite\.cjs$/.test(args.importer) ? undefined : {path: join(root, 'scripts', 'debug-lite.cjs')}))
  },
}

export const shared = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  // short local names: a quarter less to read, compile and keep.
  // Names that a run reads (a class's or function's .name) are
  // none of till's: errors carry their own name and code, and oclif finds commands by their manifest id.
  minifyIdentifiers: true,
  // a map beside each bundle, back to src/ through the maps tsc writes: a run with --debug (or TILL_DEBUG)
  // turns Node's source maps on (bin/run.js), so that a stack trace names till's own files and lines
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
}
