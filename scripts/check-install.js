#!/usr/bin/env node
// The package as people install a CLI (`npm run check-install`, run by .ci/run): `npm pack`, then
// `npm install -g` of the tarball into an empty prefix, offline (every dependency from npm's cache, as the
// clone's `npm ci` left it), and the installed till run from an empty folder with an empty HOME: --version,
// help, completion, a list on the embedded emulator, `till emulator start` and a list against it. The
// installed tree must hold no dev dependency, no source, no test, and nothing built at install.
// Prints one line per step; exits 1 naming the first step that failed. Needs a build (npm run build).
import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const tmp = mkdtempSync(join(tmpdir(), 'till-install-'))
const prefix = join(tmp, 'prefix')
const home = join(tmp, 'home')
const cwd = join(tmp, 'elsewhere')
for (const dir of [prefix, home, cwd]) mkdirSync(dir)

let failed = false
function step(name, ok, detail = '') {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}\n`)
  if (!ok) failed = true
  return ok
}

function run(command, args, options = {}) {
  return spawnSync(command, args, {encoding: 'utf8', timeout: 300_000, ...options})
}

const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CACHE_HOME: join(home, '.cache'),
}
for (const name of Object.keys(env)) if (name.startsWith('TILL_')) delete env[name]
const till = join(prefix, 'bin', 'till')
const tillRun = (args, options = {}) => run(till, args, {cwd, env, ...options})

function finish() {
  rmSync(tmp, {recursive: true, force: true})
  process.stdout.write(failed ? 'the installed package does not work\n' : 'the installed package works\n')
  process.exit(failed ? 1 : 0)
}

// as a publish packs it: prepack writes npm-shrinkwrap.json (the lockfile, so that an install takes the
// tested versions) and prepare builds
const packed = run('npm', ['pack', '--pack-destination', tmp], {cwd: root})
const tarball = join(tmp, readdirSync(tmp).find((name) => name.endsWith('.tgz')) ?? 'none.tgz')
if (!step('npm pack', packed.status === 0 && existsSync(tarball), packed.stderr.trim().split('\n').at(-1))) finish()

// npm's cache is the only source of the install: no network is asked. An install of a tarball resolves
// its dependencies' ranges from the registry's metadata (the package's npm-shrinkwrap.json pins them for a
// registry install), which npm ci never fetches: a first install into a throwaway prefix, online, fills the
// cache as a user's machine would be; the install checked here then gets everything from it
const warm = run('npm', ['install', '-g', '--no-audit', '--no-fund', '--prefix', join(tmp, 'warm'), tarball], {cwd})
step("npm's cache holds what the package needs", warm.status === 0, warm.stderr.trim().split('\n').at(-1))
const installed = run('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], {cwd})
const warnings = `${installed.stdout}\n${installed.stderr}`
if (!step('npm install -g --offline into an empty prefix', installed.status === 0 && existsSync(till), warnings.trim().split('\n').slice(-3).join(' / ')))
  finish()
step('no engine warning on install', !/EBADENGINE/.test(warnings), /EBADENGINE.*/.exec(warnings)?.[0])
step('nothing built at install', !/gyp|node-pre-gyp|prebuild-install/.test(warnings))

const tree = join(prefix, 'lib', 'node_modules', pkg.name)
const modules = existsSync(join(tree, 'node_modules')) ? readdirSync(join(tree, 'node_modules')) : []
// a package the lockfile has only for development (its dev flag) has no place in a user's tree
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
const nameOf = (path) => path.replace(/.*node_modules\//, '')
const runtimeNames = new Set(
  Object.entries(lock.packages)
    .filter(([path, entry]) => path && !entry.dev)
    .map(([path]) => nameOf(path)),
)
const devOnly = new Set(
  Object.entries(lock.packages)
    .filter(([path, entry]) => path && entry.dev)
    .map(([path]) => nameOf(path))
    .filter((name) => !runtimeNames.has(name)),
)
const dev = [...devOnly].filter((name) => modules.includes(name.split('/')[0]) && existsSync(join(tree, 'node_modules', name)))
step('no dev dependency installed', dev.length === 0, dev.join(', '))
const top = readdirSync(tree).filter((name) => name !== 'node_modules')
step(
  'only what runs is in the package',
  top.every((name) => ['bin', 'dist', 'skills', 'oclif.manifest.json', 'package.json', 'npm-shrinkwrap.json', 'README.md', 'LICENSE'].includes(name)),
  top.join(', '),
)
step('no source or test in the package', !existsSync(join(tree, 'src')) && !existsSync(join(tree, 'test')) && !existsSync(join(tree, 'contract')))

const version = tillRun(['--version'])
step('till --version', version.status === 0 && version.stdout.startsWith(`till/${pkg.version} `), version.stdout.trim() || version.stderr.trim())
const help = tillRun(['--help'])
step('till --help', help.status === 0 && /products/.test(help.stdout), help.stderr.trim())
const completion = tillRun(['autocomplete', 'script', 'bash'])
step('till autocomplete script bash', completion.status === 0 && completion.stdout.length > 20, completion.stderr.trim().split('\n')[0])
const list = tillRun(['products', 'list', '--json'])
let products = []
try {
  products = JSON.parse(list.stdout)
} catch {}
step('till products list on the embedded emulator', list.status === 0 && Array.isArray(products) && products.length > 0, list.stderr.trim().split('\n').at(-1))

// `till mcp` with its SDK from the installed tree (a runtime dependency), driven by the SDK's own client
step('the agent skill is in the package', existsSync(join(tree, 'skills', 'till', 'SKILL.md')))
const mcp = await mcpRun().catch((error) => ({error}))
step('till mcp lists its tools and answers a read', !mcp.error && mcp.tools > 100 && mcp.read === true, String(mcp.error ?? ''))

async function mcpRun() {
  const [{Client}, {StdioClientTransport}] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ])
  const client = new Client({name: 'check-install', version: '1'})
  await client.connect(new StdioClientTransport({command: till, args: ['mcp'], cwd, env, stderr: 'ignore'}))
  try {
    const {tools} = await client.listTools()
    const page = await client.callTool({name: 'products_list', arguments: {limit: 1}}, undefined, {timeout: 120_000})
    return {tools: tools.length, read: !page.isError && Array.isArray(page.structuredContent?.items)}
  } finally {
    await client.close()
  }
}

// `till emulator start` on free ports, then a list against it through a profile of its URL
const emulator = spawn(till, ['emulator', 'start', '--port', '0', '--json', '--quiet', '--data', join(tmp, 'emulator')], {
  cwd,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
})
const started = await new Promise((resolve) => {
  let out = ''
  const timer = setTimeout(() => resolve(undefined), 120_000)
  emulator.stdout.on('data', (chunk) => {
    out += chunk
    const line = out.split('\n').find((l) => l.startsWith('{'))
    if (line) {
      clearTimeout(timer)
      resolve(JSON.parse(line))
    }
  })
  emulator.on('exit', () => resolve(undefined))
})
const production = started?.production ?? started?.environments?.production ?? started
const url = production?.url
if (step('till emulator start', typeof url === 'string', url)) {
  const add = tillRun(['profiles', 'add', 'installed', '--environment', 'production', '--url', url, '--token-stdin'], {
    input: `${production.organization_token}\n`,
  })
  const again = tillRun(['-p', 'installed', 'products', 'list', '--json'])
  step(
    'till products list against the started emulator',
    add.status === 0 && again.status === 0 && !/inside this command/.test(again.stderr),
    (add.stderr || again.stderr).trim().split('\n').at(-1),
  )
}
emulator.kill('SIGTERM')
await new Promise((resolve) => (emulator.exitCode === null ? emulator.on('exit', resolve) : resolve()))
finish()
