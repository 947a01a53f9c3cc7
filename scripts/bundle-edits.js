// What every bundle of till is built with (scripts/bundle.js; the benchmark's floor program, bench/floor):
// esbuild's options, only undici's Agent and request, and the edits made to oclif's, undici's and
// find-my-way's own files as they are bundled, each with its reason.
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
 * Changes to oclif's and undici's own files as they are bundled, each measured on a one-page command:
 * - oclif sorts a plugin's commands by id with localeCompare on every run; the first localeCompare of a
 *   process loads ICU's collation data (about 6 ms, 3% of the command). Command ids are lowercase ASCII
 *   words joined by ':' and '-', which code-point order sorts the same way.
 * - Node modules loaded on load but used only on some paths are loaded on first use instead (each of
 *   these costs about 3 ms with what it loads in turn): oclif's child_process (a Windows shell check),
 *   readline (reading piped stdin) and perf_hooks (its timings, under DEBUG); undici's http (for
 *   `http.maxHeaderSize` when a client is made without one, and a check in destroy()).
 */
const lazy = (name) => `new Proxy({}, {get: (_, key) => require("${name}")[key]})`
/** A module's default export (TypeScript's __importDefault of it), loaded on first use. */
const lazyDefault = (name) => `{get default() { const m = require("${name}"); return m && m.__esModule ? m.default : m }}`
/**
 * oclif's modules that a command's run does not use, loaded on first use instead (each edit is `file`,
 * the variable, the module): help (for a help error), the error box's wrapping and stack cleaning, the
 * spinner (a terminal's progress), ejs (help texts), the glob and pattern matchers and the rc file reader
 * (plugins without a manifest), and fs/promises for TypeScript sources. Measured on `products list --limit
 * 10`: 212 of the bundle's modules evaluated before, 171 after; 3 ms less.
 */
const LAZY_OCLIF = [
  ['config/config.js', 'const ejs_1 = __importDefault(require("ejs"));', 'ejs_1', 'ejs', true],
  ['help/util.js', 'const ejs_1 = __importDefault(require("ejs"));', 'ejs_1', 'ejs', true],
  ['errors/handle.js', 'const clean_stack_1 = __importDefault(require("clean-stack"));', 'clean_stack_1', 'clean-stack', true],
  ['errors/handle.js', 'const index_1 = require("../help/index");', 'index_1', '../help/index', false],
  ['errors/errors/cli.js', 'const clean_stack_1 = __importDefault(require("clean-stack"));', 'clean_stack_1', 'clean-stack', true],
  ['errors/errors/cli.js', 'const indent_string_1 = __importDefault(require("indent-string"));', 'indent_string_1', 'indent-string', true],
  ['errors/errors/cli.js', 'const wrap_ansi_1 = __importDefault(require("wrap-ansi"));', 'wrap_ansi_1', 'wrap-ansi', true],
  ['errors/errors/pretty-print.js', 'const indent_string_1 = __importDefault(require("indent-string"));', 'indent_string_1', 'indent-string', true],
  ['errors/errors/pretty-print.js', 'const wrap_ansi_1 = __importDefault(require("wrap-ansi"));', 'wrap_ansi_1', 'wrap-ansi', true],
  ['config/plugin-loader.js', 'const minimatch_1 = require("minimatch");', 'minimatch_1', 'minimatch', false],
  ['config/plugin.js', 'const tinyglobby_1 = require("tinyglobby");', 'tinyglobby_1', 'tinyglobby', false],
  ['util/read-pjson.js', 'const lilconfig_1 = require("lilconfig");', 'lilconfig_1', 'lilconfig', false],
  ['parser/errors.js', 'const list_1 = __importDefault(require("../ux/list"));', 'list_1', '../ux/list', true],
  ['ux/index.js', 'const spinner_1 = __importDefault(require("./action/spinner"));', 'spinner_1', './action/spinner', true],
  ['index.js', 'var help_1 = require("./help");', 'help_1', './help', false],
  // fs/promises (about 2 ms to load, with readline and the file watchers) for TypeScript sources only
  ['config/ts-path.js', 'const promises_1 = require("node:fs/promises");', 'promises_1', 'node:fs/promises', false],
  ['util/read-tsconfig.js', 'const promises_1 = require("node:fs/promises");', 'promises_1', 'node:fs/promises', false],
  ['parser/index.js', 'var help_1 = require("./help");', 'help_1', './help', false],
  ['flags.js', 'const help_1 = require("./help");', 'help_1', './help', false],
].map(([file, from, variable, name, isDefault]) => ({
  file: new RegExp(`@oclif[\\\\/]core[\\\\/]lib[\\\\/]${file.replace(/[/.]/g, (c) => (c === '/' ? '[\\\\/]' : '\\.'))}$`),
  from,
  to: `${from.startsWith('var') ? 'var' : 'const'} ${variable} = ${isDefault ? lazyDefault(name) : lazy(name)};`,
}))
const EDITS = [
  ...LAZY_OCLIF,
  // oclif reads its manifest and package files with fs/promises, whose first load costs about 2 ms (it
  // brings readline and the file watchers with it); a read of a small file is as fast done at once
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]fs\.js$/,
    from: 'const promises_1 = require("node:fs/promises");',
    to: 'const promises_1 = {stat: async (path) => node_fs_1.statSync(path), readFile: async (path, options) => node_fs_1.readFileSync(path, options)};',
  },
  // every run asks help's index for two functions of its util (whether an argument asks for help, the command's id)
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]main\.js$/,
    from: 'const help_1 = require("./help");',
    to: 'const help_1 = new Proxy({}, {get: (_, key) => (key === "getHelpFlagAdditions" || key === "normalizeArgv" ? require("./help/util") : require("./help"))[key]});',
  },
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/,
    from: '.sort((a, b) => a.id.localeCompare(b.id))',
    to: '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))',
  },
  {file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/, from: 'require("node:child_process")', to: lazy('node:child_process')},
  // The manifest a run reads: main.ts may name a smaller one for a command's run (scripts/sort-manifest.js)
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/,
    from: 'const manifest = await (0, fs_1.readJson)(p);',
    to: 'const manifest = await (0, fs_1.readJson)(globalThis.__tillManifest?.(p) ?? p);',
  },
  // oclif's config.platform is 'wsl' rather than 'linux' under WSL, for its user agent and nothing else;
  // till reads neither (its requests carry their own user agent). Telling WSL apart reads /proc/version
  // and loads three packages (wsl-utils, is-wsl, is-inside-container) on every run: the platform is Node's.
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/,
    from: "(await import('wsl-utils')).isWsl ? 'wsl' : (0, node_os_1.platform)()",
    to: '(0, node_os_1.platform)()',
  },
  {file: /@oclif[\\/]core[\\/]lib[\\/]parser[\\/]parse\.js$/, from: 'require("node:readline")', to: lazy('node:readline')},
  // A flag's value that starts with '-' (`--sort -amount`, `--sort=-occurrences`) was refused as "expects a
  // value" whenever its first letter was a short flag (-a, -o, -p): oclif took `-occurrences` for `-o
  // ccurrences`. The value is refused only when it is a whole flag (`-o`, `--json`), as gh and git do.
  {
    file: /@oclif[\\/]core[\\/]lib[\\/]parser[\\/]parse\.js$/,
    from: "if (typeof input !== 'string' || this.findFlag(input).name) {",
    to: "if (typeof input !== 'string' || (this.findFlag(input).name && (input.startsWith('--') || input.length === 2))) {",
  },
  {file: /@oclif[\\/]core[\\/]lib[\\/]performance\.js$/, from: 'require("node:perf_hooks")', to: lazy('node:perf_hooks')},
  {file: /undici[\\/]lib[\\/]core[\\/]util\.js$/, from: "const { IncomingMessage } = require('node:http')", to: `const lazyHttp = ${lazy('node:http')}`},
  {file: /undici[\\/]lib[\\/]core[\\/]util\.js$/, from: '.constructor === IncomingMessage)', to: '.constructor === lazyHttp.IncomingMessage)'},
  {file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, from: "const http = require('node:http')", to: `const http = ${lazy('node:http')}`},
  {
    file: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    from: 'const getDefaultNodeMaxHeaderSize = http &&',
    to: 'const getDefaultNodeMaxHeaderSize = () => getMaxHeaderSize()()\nconst getMaxHeaderSize = () => http &&',
  },
]
/**
 * find-my-way, the emulator's router, writes a function's source and compiles it (new Function) for each
 * path segment and route it adds: code that no code cache keeps, compiled on every start (about 4 ms of
 * the emulator's). These are the same checks as closures.
 */
const ROUTER_EDITS = [
  {
    file: /find-my-way[\\/]lib[\\/]node\.js$/,
    from: 'function compilePrefixMatch (prefix) {\n',
    to: 'function compilePrefixMatch (prefix) {\n  if (prefix.length > 1) return function matchPrefix (path, i) { return path.startsWith(prefix, i) }\n',
  },
  {
    file: /find-my-way[\\/]lib[\\/]handler-storage\.js$/,
    from: '  _compileCreateParamsObject (params) {\n',
    to: `  _compileCreateParamsObject (params) {
    const names = [...params]
    return function _createParamsObject (param0, param1, param2, param3, extraParams) {
      const values = new NullObject()
      for (let i = 0; i < names.length; i++) values[names[i]] = i === 0 ? param0 : i === 1 ? param1 : i === 2 ? param2 : i === 3 ? param3 : extraParams[i - 4]
      return values
    }
`,
  },
]
EDITS.push(...ROUTER_EDITS)
/**
 * @oclif/plugin-autocomplete's setup for bash and zsh appends `printf "$(till autocomplete script bash)"` to
 * the shell's rc file: the command substitution drops the script's last newline, so the next line appended
 * to that file joins its line. The script is appended as it is printed instead.
 */
const SCRIPT_COMMAND = ['$', '{scriptCommand}'].join('') // the plugin's own template placeholder, as text
EDITS.push({
  file: /plugin-autocomplete[\\/]lib[\\/]commands[\\/]autocomplete[\\/]index\.js$/,
  from: `printf "$(${SCRIPT_COMMAND})" >> `,
  to: `${SCRIPT_COMMAND} >> `,
  all: true,
})
export const edits = {
  name: 'edits',
  setup(b) {
    b.onLoad({filter: /(@oclif[\\/]core|@oclif[\\/]plugin-autocomplete|undici|find-my-way)[\\/]lib[\\/].*\.js$/}, async (args) => {
      const mine = EDITS.filter((e) => e.file.test(args.path))
      if (mine.length === 0) return undefined
      let text = await readFile(args.path, 'utf8')
      for (const edit of mine) {
        if (!text.includes(edit.from)) throw new Error(`${args.path}: "${edit.from}" was not found (the dependency changed): update scripts/bundle-edits.js`)
        text = edit.all ? text.replaceAll(edit.from, edit.to) : text.replace(edit.from, edit.to)
      }
      return {contents: text, loader: 'js'}
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
  // short local names: a quarter less to read, compile and keep (measured on `products list --limit 10`:
  // 2.2 -> 1.7 MB, 4 ms and 2.4 MiB less). Names that a run reads (a class's or function's .name) are
  // none of till's: errors carry their own name and code, and oclif finds commands by their manifest id.
  minifyIdentifiers: true,
  logLevel: 'warning',
}
