#!/usr/bin/env node
// till's benchmark (`npm run bench`): every figure is a ratio against a baseline measured in the same run.
//  1. start-up: `till --version`, one-page lists, help and a typo (emulator running) against `node -e 0`, runs
//     alternated, with their aims (ratios, and the peak RSS of one page); a one-page list without
//     the compile cache, as the first run after an install is; a fresh install's list, served by an
//     emulator started inside the command; the same list on a terminal; and the floor of the stack, an oclif
//     command that makes one undici request, built and loaded as till is (bench/floor)
//  2. export 10,000 orders at --latency 25ms: `till orders list --all -o jsonl` against a plain sequential page loop
//  3. peak RSS of streaming 200,000 orders to /dev/null, against the RSS of `node -e 0`
//  4. pacing: an export at --rate-limit 20/2s with the profile told the same limit: achieved rate and 429s
//  5. metrics over 100,000 orders: `till metrics` (monthly over 18 months, daily over 90 days in Asia/Kolkata)
//     against `till products list`, one small request to the same emulator
//  6. ingest 200,000 events at --latency 25ms: `till events ingest` against a sequential loop posting the same batches, and its peak RSS
//  7. 1,000,000 stored events: ingest of 1,000 events, a meter's quantities, a customer's meters and the
//     emulator's start, against the same requests on an empty event log
//  8. load: 8 processes at once, each importing 500 customers (`till customers import`) into one emulator with
//     5% of requests answered 5xx and 2% of connections cut after the change, all sharing one profile's budget
//     (the service's per-minute limit scaled to 1,000 per 10 s so that the case ends in minutes): every
//     customer exactly once, every exit code, the 429s against the windows, and the achieved rate against the limit
// 10. catalog plan of 60,000 products (a file of about 7 MB) against 6,000 (linear: about 10 times as long), and how
//     soon SIGTERM stops it while it reads the file, against how long the reading takes
//  9. moving to Polar: a fake Stripe, Lemon Squeezy and Paddle of 1,000 products and 10,000 customers each
//     (test/helpers/fake-*.ts, loaded with tsx; Paddle without the address per customer) moved into an emulator
//     with `till migrate <source>`, `catalog apply` and `customers import`, then
//     the whole sequence again: the seconds of each step, the precheck's counts against what was created, and
//     what the second run created or changed (nothing, `catalog plan` exit 0)
// 12. the emulator's clock: `till emulator clock advance 1y` on the default store and on one of 10,000
//     subscriptions: seconds, events, events per second
// `--only=N[,N]` runs only those cases (e.g. --only=6); `--sources=lemonsqueezy,paddle` only those sources of case 9.
// `--node=26,24,22` the Node builds (case 1 on each, the rest on the first; see nodeBuilds); `--runs=N` the start-up
// runs (15; 5 with --quick).
import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {homedir, loadavg, tmpdir} from 'node:os'
import {connect} from 'node:net'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build} from 'esbuild'

import {edits, shared, slimUndici} from '../scripts/bundle-edits.js'
import {keyringProfile} from './keyring.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'bin', 'run.js')
const rssHook = join(root, 'bench', 'rss-hook.cjs')
const quick = process.argv.includes('--quick')
const RUNS = Number(option('runs') ?? (quick ? 5 : 15))

/**
 * The Node builds to measure (`--node 26,24,22`): a major version names the npm registry's build that .ci/run
 * keeps in its cache folder, anything else is a path. By default each of 26, 24 and 22 found there, else the
 * Node running this. Start-up (case 1) runs on each, every ratio against `node -e 0` of the same binary; the
 * other cases run on the first.
 */
function nodeBuilds() {
  const cache = process.env.TILL_NODE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'till-node')
  const path = (v) => (/^\d+$/.test(v) ? join(cache, v, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node') : v)
  const asked = option('node')?.split(',')
  if (asked) {
    const missing = asked.filter((v) => !existsSync(path(v)))
    if (missing.length > 0) throw new Error(`no Node build at ${missing.map(path).join(', ')} (.ci/run installs 26, 24 and 22)`)
    return asked.map(path)
  }
  const found = ['26', '24', '22'].map(path).filter((p) => existsSync(p))
  return found.length > 0 ? found : [process.execPath]
}
const NODES = nodeBuilds()
/** The Node binary the case being measured runs on (and its emulator). */
let node = NODES[0]
const versionOf = (binary) => spawnSync(binary, ['--version'], {encoding: 'utf8'}).stdout.trim()
/** The value of `--name=value` or `--name value`. */
function option(name) {
  const at = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  if (at === -1) return undefined
  return process.argv[at].includes('=') ? process.argv[at].slice(name.length + 3) : process.argv[at + 1]
}
const only = option('only')?.split(',')
const wanted = (n) => !only || only.includes(String(n))

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const fmt = (n, digits = 0) => n.toLocaleString('en-US', {maximumFractionDigits: digits, minimumFractionDigits: digits})

function startEmulator(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, 'emulator', 'start', '--port', '0', '--json', ...args], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    const requests = {total: 0, limited: 0, times: []}
    child.stderr.on('data', (d) => {
      err += d
      for (const line of String(d).split('\n')) {
        if (/^\[production\] \w+ \S+ \d+/.test(line)) {
          requests.total++
          requests.times.push(performance.now())
          if (/ 429 /.test(line)) requests.limited++
        }
      }
    })
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('\n')) resolve({child, info: JSON.parse(out.split('\n')[0]).environments, requests})
    })
    child.on('exit', (code) => reject(new Error(`emulator exited (${code}): ${err.slice(-2000)}`)))
  })
}

const stop = (emu) =>
  new Promise((r) => {
    emu.child.removeAllListeners('exit')
    emu.child.once('exit', r)
    emu.child.kill('SIGTERM')
  })

/** Runs a command to completion; returns wall time in ms, exit code, stdout and stderr (a non-zero exit throws unless `failing`, a zero one if it is true; 'any' takes either). */
function run(cmd, args, env = {}, stdout = 'pipe', failing = false) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(cmd, args, {env: {...process.env, ...env}, stdio: ['ignore', stdout, 'pipe']})
    const chunks = []
    let err = ''
    child.stdout?.on('data', (d) => chunks.push(d))
    child.stderr.on('data', (d) => (err += d))
    child.on('exit', (code) => {
      const ms = performance.now() - started
      if (failing !== 'any' && (code !== 0) !== failing) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-1000)}`))
      else resolve({ms, code, stdout: Buffer.concat(chunks).toString('utf8'), stderr: err})
    })
  })
}

function envFor(emu, extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'till-bench-cfg-'))
  return {TILL_CONFIG_DIR: dir, TILL_API_URL: emu.info.production.url, TILL_TOKEN: emu.info.production.organization_token, TILL_ENV: 'local', ...extra}
}

/** A plain sequential page loop, the baseline for exports: page 1..max_page at limit 100. */
async function pageLoop(url, token) {
  const ids = []
  for (let page = 1, max = 1; page <= max; page++) {
    const res = await fetch(`${url}/orders/?page=${page}&limit=100`, {headers: {authorization: `Bearer ${token}`}})
    if (res.status !== 200) throw new Error(`page loop got HTTP ${res.status}`)
    const body = await res.json()
    max = body.pagination.max_page
    for (const item of body.items) ids.push(item.id)
  }
  return ids
}

const rows = []
const table = (title, headers, data) => {
  rows.push(`\n${title}\n`)
  const widths = headers.map((h, i) => Math.max(h.length, ...data.map((r) => String(r[i]).length)))
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`
  rows.push(line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...data.map(line))
  console.log(rows.slice(-data.length - 3).join('\n'))
}

/** The peak RSS (MiB) and the CPU time (ms) the RSS hook reports. */
const peakOf = (stderr) => Number(/till-bench-maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024
const cpuOf = (stderr) => Number(/till-bench-cpu=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1000

// The start-up aims on Node 26: ratios to `node -e 0` of the same binary, measured alternately in
// the same run, and till's own work over the floor (a one-page list against bench/floor)
const AIMS = {version: 1.2, list: 1.6, listRssMiB: 55, embedded: 2.3, overFloor: 1.08}

/**
 * The environment of a first install: an empty config folder, so the default `local` profile, and nothing
 * on its address (127.0.0.1:4010), so that each run serves itself from an emulator run inside the command
 * (its data kept between runs, as a user's is). A `local` profile with a URL of its own is refused when
 * nothing answers (it is for an emulator of its own), so the default address must be free: undefined when
 * something answers there.
 */
async function embeddedEnv() {
  if (await answersAt(4010)) return undefined
  return {TILL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'till-bench-cfg-')), TILL_DATA_DIR: mkdtempSync(join(tmpdir(), 'till-bench-data-'))}
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function answersAt(port) {
  return new Promise((resolve) => {
    const socket = connect({host: '127.0.0.1', port})
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * The floor program (bench/floor/command.cjs), built into `dir` as till is built and with an entry like
 * bin/run.js: the same loader and a compile cache of its own. Returns its entry.
 */
async function buildFloor(dir) {
  await build({
    ...shared,
    entryPoints: [join(root, 'bench', 'floor', 'command.cjs')],
    outfile: join(dir, 'floor.cjs'),
    external: ['typescript', 'ts-node', 'tsx'],
    plugins: [slimUndici, edits],
  })
  const commands = {strategy: 'explicit', target: './commands.cjs', identifier: 'COMMANDS'}
  writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'floor', version: '1.0.0', oclif: {bin: 'floor', commands}}))
  writeFileSync(join(dir, 'commands.cjs'), "module.exports = {COMMANDS: {list: require('./floor.cjs').List}}\n")
  const entry = join(dir, 'run.cjs')
  writeFileSync(
    entry,
    `'use strict'
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
const boot = require(${JSON.stringify(join(root, 'dist', 'bundle', 'cli', 'boot.cjs'))})
const loaded = boot.requireWithCache(${JSON.stringify(join(dir, 'floor.cjs'))}, 'command', {...process.env, TILL_CACHE_DIR: ${JSON.stringify(dir)}}, 'list')
loaded.exports.main(process.argv.slice(2), __dirname)
`,
  )
  return entry
}

async function startup(data) {
  const emu = await startEmulator(['--data', data, '--quiet', '--rate-limit', 'off', '--ip-rate-limit', 'off'])
  const floor = await buildFloor(mkdtempSync(join(tmpdir(), 'till-bench-floor-')))
  const env = envFor(emu)
  const commands = {
    version: ['--version'],
    list: ['products', 'list', '--limit', '10'],
    orders: ['orders', 'list', '--limit', '10', '-o', 'json'],
    help: ['products', 'list', '--help'],
    typo: ['prodcts', 'list'],
    // the first run after an install or upgrade: no compile cache yet (src/cli/compile-cache.ts)
    cold: ['products', 'list', '--limit', '10'],
    // a fresh install's first command: no emulator running, one is started inside the command
    embedded: ['products', 'list', '--limit', '10'],
    // a profile whose token is in the OS keyring (a real Secret Service), read while the bundle loads
    keyring: ['products', 'list', '--limit', '10'],
  }
  // the same list on a terminal (a pseudo-terminal from util-linux's script, 120 columns): a table, colours,
  // relative dates; against node -e 0 on one, as script itself takes a few milliseconds
  const onTerminal = (args) => ['-qfec', `stty cols 120 rows 50 2>/dev/null; ${[node, ...args].join(' ')}`, '/dev/null']
  const terminal = spawnSync('script', ['--version'], {encoding: 'utf8'}).stdout?.includes('util-linux')
  const coldEnv = {...env, NODE_DISABLE_COMPILE_CACHE: '1'}
  const firstEnv = await embeddedEnv()
  if (!firstEnv) {
    delete commands.embedded
    console.error('bench: something answers on 127.0.0.1:4010, so the embedded emulator is not measured (stop it to measure that row)')
  }
  const keyring = keyringProfile(node, bin, emu.info.sandbox)
  if (!keyring.env) {
    delete commands.keyring
    console.error(`bench: the list of a keyring profile is not measured: ${keyring.why}`)
  }
  const envOf = (name) => (name === 'cold' ? coldEnv : name === 'embedded' ? firstEnv : name === 'keyring' ? keyring.env : env)
  const times = {node: [], floor: [], ttyNode: [], ttyList: [], ...Object.fromEntries(Object.keys(commands).map((k) => [k, []]))}
  // the CPU time of each run (user and system, from inside the process): on a loaded machine the wall time of
  // a run depends on what else runs, its CPU time much less
  const cpu = Object.fromEntries(Object.keys(times).map((k) => [k, []]))
  const rss = {node: [], list: [], floor: [], ttyList: []}
  /** One run of `args` with the RSS hook: its wall time, CPU time and peak RSS. */
  const measure = async (name, args, env_, failing = false) => {
    const r = await run(node, ['--require', rssHook, ...args], env_, 'pipe', failing)
    times[name].push(r.ms)
    cpu[name].push(cpuOf(r.stderr))
    rss[name]?.push(peakOf(r.stderr))
  }
  for (let i = 0; i < RUNS; i++) {
    await measure('node', ['-e', '0'], env)
    for (const [name, args] of Object.entries(commands)) await measure(name, [bin, ...args], envOf(name), name === 'typo')
    await measure('floor', [floor, 'list', '--limit', '10'], env)
    if (terminal) {
      times.ttyNode.push((await run('script', onTerminal(['-e', '0']), env)).ms)
      const r = await run('script', onTerminal(['--require', rssHook, bin, ...commands.list]), env)
      times.ttyList.push(r.ms)
      rss.ttyList.push(peakOf(r.stdout))
    }
  }
  await stop(emu)
  keyring.stop?.()
  const base = median(times.node)
  const ratio = (name) => median(times[name]) / base
  const cpuRatio = (name) => fmt(median(cpu[name]) / median(cpu.node), 2)
  const row = (label, name, aim) => [
    label,
    fmt(median(times[name])),
    fmt(ratio(name), 2),
    aim ? `<= ${fmt(aim, 1)}` : '-',
    aim ? (ratio(name) <= aim ? 'yes' : 'NO') : '-',
    fmt(median(cpu[name])),
    cpuRatio(name),
  ]
  table(
    `1. Start-up on Node ${versionOf(node)} (median of ${RUNS} alternated runs; emulator running; load average ${loadavg()[0].toFixed(1)})`,
    ['command', 'median ms', 'ratio to node -e 0', 'aim', 'met', 'CPU ms', 'CPU ratio'],
    [
      ['node -e 0', fmt(base), '1.00', '-', '-', fmt(median(cpu.node)), '1.00'],
      row('till --version', 'version', AIMS.version),
      row('floor: oclif + one undici request (bench/floor)', 'floor'),
      row('till products list --limit 10', 'list', AIMS.list),
      [
        "till's own work: the list against the floor",
        '-',
        `${fmt(median(times.list) / median(times.floor), 2)} of the floor`,
        `<= ${fmt(AIMS.overFloor, 2)}`,
        median(times.list) / median(times.floor) <= AIMS.overFloor ? 'yes' : 'NO',
        '-',
        `${fmt(median(cpu.list) / median(cpu.floor), 2)} of the floor`,
      ],
      row('till orders list --limit 10 -o json', 'orders', AIMS.list),
      row('till products list --help', 'help'),
      row('till prodcts list (did you mean)', 'typo'),
      row('till products list --limit 10, no compile cache', 'cold'),
      ...(firstEnv ? [row('till products list --limit 10, embedded emulator', 'embedded', AIMS.embedded)] : []),
      ...(keyring.env ? [row('till products list --limit 10, token in the OS keyring', 'keyring')] : []),
      ...(terminal
        ? [
            ['node -e 0 on a terminal', fmt(median(times.ttyNode)), '1.00', '-', '-', '-', '-'],
            [
              'till products list --limit 10 on a terminal',
              fmt(median(times.ttyList)),
              fmt(median(times.ttyList) / median(times.ttyNode), 2),
              '-',
              '-',
              '-',
              '-',
            ],
          ]
        : [['on a terminal: skipped (needs util-linux script)', '-', '-', '-', '-', '-', '-']]),
    ],
  )
  const listRss = median(rss.list)
  table(
    `1b. Peak RSS of one page on Node ${versionOf(node)} (median of ${RUNS})`,
    ['process', 'peak RSS MiB', 'ratio to node -e 0', 'aim', 'met'],
    [
      ['node -e 0', fmt(median(rss.node), 1), '1.00', '-', '-'],
      ['floor: oclif + one undici request (bench/floor)', fmt(median(rss.floor), 1), fmt(median(rss.floor) / median(rss.node), 2), '-', '-'],
      [
        'till products list --limit 10',
        fmt(listRss, 1),
        fmt(listRss / median(rss.node), 2),
        `<= ${AIMS.listRssMiB} MiB`,
        listRss <= AIMS.listRssMiB ? 'yes' : 'NO',
      ],
      ...(terminal
        ? [['till products list --limit 10 on a terminal', fmt(median(rss.ttyList), 1), fmt(median(rss.ttyList) / median(rss.node), 2), '-', '-']]
        : []),
    ],
  )
}

async function exportOrders(data) {
  const emu = await startEmulator(['--data', data, '--quiet', '--orders', '10000', '--customers', '2000', '--latency', '25ms', '--rate-limit', 'off'])
  const env = envFor(emu)
  const loops = quick ? 1 : 3
  const t = {loop: [], till: []}
  let same = true
  for (let i = 0; i < loops; i++) {
    const started = performance.now()
    const expected = await pageLoop(emu.info.production.url, emu.info.production.organization_token)
    t.loop.push(performance.now() - started)
    const r = await run(node, [bin, 'orders', 'list', '--all', '-o', 'jsonl'], env)
    t.till.push(r.ms)
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id)
    same &&= got.length === expected.length && got.every((id, k) => id === expected[k])
  }
  await stop(emu)
  const base = median(t.loop)
  table(
    '2. Export 10,000 orders at --latency 25ms',
    ['method', 'median ms', 'ratio to page loop', 'same ids'],
    [
      ['sequential page loop (limit 100)', fmt(base), '1.00', '-'],
      ['till orders list --all -o jsonl', fmt(median(t.till)), fmt(median(t.till) / base, 2), same ? 'yes' : 'NO'],
    ],
  )
}

/** The sizes the memory cases run at: a streamer's peak must not grow with how much it streams. */
const SIZES = quick ? [10_000, 50_000] : [50_000, 200_000]
/** The peak's growth from the smaller size to the larger, as a ratio. */
const growth = (peaks) => fmt(peaks.at(-1) / peaks[0], 2)
const MEMORY_AIM_MIB = 100

async function memory(data) {
  const base = await run(node, ['--require', rssHook, '-e', '0'])
  const peaks = []
  const data_ = []
  for (const orders of SIZES) {
    const emu = await startEmulator([
      '--data',
      join(data, String(orders)),
      '--quiet',
      '--orders',
      String(orders),
      '--customers',
      '5000',
      '--rate-limit',
      'off',
      '--ip-rate-limit',
      'off',
    ])
    // the emulator's per-minute limit is off: tell the client a budget that does not bind (it still keeps to 100/s per IP)
    const env = envFor(emu, {TILL_RATE_LIMIT: '1000000/60s'})
    const r = await run(node, ['--require', rssHook, bin, 'orders', 'list', '--all', '-o', 'jsonl'], env, 'ignore')
    await stop(emu)
    const peak = peakOf(r.stderr)
    peaks.push(peak)
    data_.push([
      `till orders list --all -o jsonl, ${fmt(orders)} orders`,
      fmt(peak, 1),
      fmt(peak / peakOf(base.stderr), 2),
      `<= ${MEMORY_AIM_MIB}`,
      peak <= MEMORY_AIM_MIB ? 'yes' : 'NO',
      fmt(r.ms / 1000, 1),
    ])
  }
  table(
    `3. Peak RSS streaming orders to /dev/null (the peak grows ${growth(peaks)}x from ${fmt(SIZES[0])} to ${fmt(SIZES.at(-1))})`,
    ['process', 'peak RSS MiB', 'ratio to node -e 0', 'aim MiB', 'met', 'wall s'],
    [['node -e 0', fmt(peakOf(base.stderr), 1), '1.00', '-', '-', fmt(base.ms / 1000, 2)], ...data_],
  )
}

/** `catalog plan` of a catalog of `products` products against the organization it was pulled from: its peak RSS. */
async function catalogPlan(data) {
  const products = quick ? 15_000 : 60_000
  const emu = await startEmulator([
    '--data',
    data,
    '--quiet',
    '--products',
    String(products),
    '--customers',
    '10',
    '--orders',
    '0',
    '--rate-limit',
    'off',
    '--ip-rate-limit',
    'off',
  ])
  const env = envFor(emu, {TILL_RATE_LIMIT: '1000000/60s'})
  const file = join(data, 'catalog.yaml')
  const pull = await run(node, ['--require', rssHook, bin, 'catalog', 'pull', '--out', file], env)
  // a plan of the catalog just pulled: nothing to change should be exit 0 (its exit code is shown)
  const plan = await run(node, ['--require', rssHook, bin, 'catalog', 'plan', file], env, 'pipe', 'any')
  await stop(emu)
  const row = (what, r) => [what, fmt(peakOf(r.stderr), 1), `<= ${MEMORY_AIM_MIB}`, peakOf(r.stderr) <= MEMORY_AIM_MIB ? 'yes' : 'NO', fmt(r.ms / 1000, 1)]
  table(
    `10. A catalog of ${fmt(products)} products`,
    ['command', 'peak RSS MiB', 'aim MiB', 'met', 'wall s'],
    [row('till catalog pull', pull), row(`till catalog plan of the same (exit ${plan.code})`, plan)],
  )
}

/** Most entries of `times` (ms, ascending) inside any window of `windowMs`. */
function maxInWindow(times, windowMs) {
  let best = 0
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= windowMs) j++
    best = Math.max(best, i - j + 1)
  }
  return best
}

async function pacing(data) {
  const emu = await startEmulator(['--data', data, '--orders', '3000', '--rate-limit', '20/2s'])
  const env = envFor(emu, {TILL_RATE_LIMIT: '20/2s'})
  const from = emu.requests.total
  const r = await run(node, [bin, 'orders', 'list', '--all', '--limit', '50', '-o', 'jsonl'], env)
  await new Promise((res) => setTimeout(res, 200))
  const times = emu.requests.times.slice(from)
  const limited = emu.requests.limited
  await stop(emu)
  // achieved: requests per 2 s window over the windows the export spanned (the budget allows 20 in each)
  const windows = Math.floor((times.at(-1) - times[0]) / 2000) + 1
  const achieved = times.length / windows
  const busiest = maxInWindow(times, 2000)
  table(
    '4. Pacing at --rate-limit 20/2s (profile told the same)',
    ['requests', 'seconds', '2 s windows', 'achieved per window', 'allowed', 'ratio', 'most in any 2 s', '429s'],
    [[times.length, fmt(r.ms / 1000, 1), windows, fmt(achieved, 1), 20, fmt(achieved / 20, 2), busiest, limited]],
  )
}

async function metrics(data) {
  const emu = await startEmulator([
    '--data',
    data,
    '--quiet',
    '--orders',
    quick ? '20000' : '100000',
    '--customers',
    '5000',
    '--rate-limit',
    'off',
    '--ip-rate-limit',
    'off',
  ])
  const env = envFor(emu)
  const runs = quick ? 3 : 7
  const t = {list: [], month: [], day: []}
  for (let i = 0; i < runs; i++) {
    t.list.push((await run(node, [bin, 'products', 'list'], env)).ms)
    t.month.push(
      (await run(node, [bin, 'metrics', '--last', '18m', '--interval', 'month', '--metric', 'revenue,orders,mrr,active_subscriptions', '-o', 'jsonl'], env)).ms,
    )
    t.day.push((await run(node, [bin, 'metrics', '--last', '90d', '--interval', 'day', '--timezone', 'Asia/Kolkata', '-o', 'jsonl'], env)).ms)
  }
  await stop(emu)
  const base = median(t.list)
  table(
    `5. Metrics over ${quick ? '20,000' : '100,000'} orders (median of ${runs})`,
    ['command', 'median ms', 'ratio to products list'],
    [
      ['till products list', fmt(base), '1.00'],
      ['till metrics --last 18m --interval month', fmt(median(t.month)), fmt(median(t.month) / base, 2)],
      ['till metrics --last 90d --interval day (Asia/Kolkata)', fmt(median(t.day)), fmt(median(t.day) / base, 2)],
    ],
  )
}

/** Writes `n` events as JSON lines (no external ids, so every run inserts them all). */
function eventsFile(file, n, tag) {
  const lines = []
  const base = Date.UTC(2026, 0, 1)
  for (let i = 0; i < n; i++) {
    lines.push(
      JSON.stringify({
        name: 'bench.call',
        external_customer_id: `user_${i % 500}`,
        timestamp: new Date(base + i * 1000).toISOString(),
        metadata: {tokens: i % 997, run: tag},
      }),
    )
  }
  writeFileSync(file, `${lines.join('\n')}\n`)
}

/** A plain sequential loop: the same batches of 1,000 posted one after another. */
async function ingestLoop(url, token, file, batch) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
  let inserted = 0
  for (let i = 0; i < lines.length; i += batch) {
    const body = `{"events":[${lines.slice(i, i + batch).join(',')}]}`
    const res = await fetch(`${url}/events/ingest`, {method: 'POST', headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body})
    if (res.status !== 200) throw new Error(`ingest loop got HTTP ${res.status}: ${await res.text()}`)
    inserted += (await res.json()).inserted
  }
  return inserted
}

async function ingest(data) {
  const data_ = []
  const peaks = []
  for (const n of SIZES) {
    const emu = await startEmulator(['--data', join(data, String(n)), '--quiet', '--latency', '25ms', '--rate-limit', 'off', '--ip-rate-limit', 'off'])
    const env = envFor(emu, {TILL_RATE_LIMIT: '1000000/60s'})
    const loopFile = join(data, `loop-${n}.jsonl`)
    const tillFile = join(data, `till-${n}.jsonl`)
    mkdirSync(data, {recursive: true})
    eventsFile(loopFile, n, 'loop')
    eventsFile(tillFile, n, 'till')
    const started = performance.now()
    const loopInserted = await ingestLoop(emu.info.production.url, emu.info.production.organization_token, loopFile, 1000)
    const loopMs = performance.now() - started
    const r = await run(node, ['--require', rssHook, bin, 'events', 'ingest', tillFile, '--json'], env)
    await stop(emu)
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1))
    const rss = peakOf(r.stderr)
    peaks.push(rss)
    data_.push(
      [`sequential loop of POSTs, ${fmt(n)}`, fmt(loopMs), '1.00', fmt(loopInserted), fmt(Math.ceil(n / 1000)), '-', '-'],
      [
        `till events ingest, ${fmt(n)}`,
        fmt(r.ms),
        fmt(r.ms / loopMs, 2),
        fmt(summary.inserted),
        fmt(summary.requests),
        fmt(rss, 1),
        rss <= MEMORY_AIM_MIB ? 'yes' : 'NO',
      ],
    )
  }
  table(
    `6. Ingest events at --latency 25ms (batches of 1,000; the peak grows ${growth(peaks)}x from ${fmt(SIZES[0])} to ${fmt(SIZES.at(-1))})`,
    ['method', 'ms', 'ratio to loop', 'inserted', 'requests', 'peak RSS MiB', `<= ${MEMORY_AIM_MIB} MiB`],
    data_,
  )
}

/** One request's wall time in ms (it must answer 200). */
async function timed(url, token, method, path, body) {
  const started = performance.now()
  const res = await fetch(`${url}${path}`, {method, headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body})
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${path}: HTTP ${res.status}: ${text.slice(0, 300)}`)
  return {ms: performance.now() - started, body: JSON.parse(text)}
}

/** `n` events over 1,000 customers and 30 days of January 2026; 9 in 10 named scale.call. */
function scaleBatch(from, n) {
  const events = []
  for (let i = from; i < from + n; i++) {
    events.push(
      `{"name":"${i % 10 === 9 ? `scale.other${i % 7}` : 'scale.call'}","external_customer_id":"sc_${i % 1000}","timestamp":"${new Date(Date.UTC(2026, 0, 1) + (i % 2_592_000) * 1000).toISOString()}","metadata":{"tokens":${i % 997}}}`,
    )
  }
  return `{"events":[${events.join(',')}]}`
}

async function scale(data) {
  const total = quick ? 200_000 : 1_000_000
  const flags = ['--data', data, '--quiet', '--rate-limit', 'off', '--ip-rate-limit', 'off']
  const runs = quick ? 3 : 7
  let emu = await startEmulator(flags)
  const {url, organization_token: token} = emu.info.production
  const meter = await (
    await fetch(`${url}/meters/`, {
      method: 'POST',
      headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
      body: JSON.stringify({
        name: 'Scale tokens',
        filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'scale.call'}]},
        aggregation: {func: 'sum', property: 'tokens'},
      }),
    })
  ).json()
  const customer = await (
    await fetch(`${url}/customers/`, {
      method: 'POST',
      headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
      body: JSON.stringify({email: 'scale@example.com', external_id: 'sc_7'}),
    })
  ).json()
  const quantities = `/meters/${meter.id}/quantities?start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-01-31T23:59:59Z&interval=day`
  const customerQuantities = `${quantities}&external_customer_id=sc_7`
  const customerMeters = `/customer-meters/?customer_id=${customer.id}`
  let tag = 0
  const measure = async () => {
    const out = {ingest: [], quantities: [], customer: [], meters: []}
    for (let i = 0; i < runs; i++) {
      const batch = Array.from({length: 1000}, (_, k) => `{"name":"probe.call","external_customer_id":"probe","external_id":"probe-${tag}-${k}"}`)
      tag++
      const at = emu.info.production.url
      out.ingest.push((await timed(at, token, 'POST', '/events/ingest', `{"events":[${batch.join(',')}]}`)).ms)
      out.quantities.push((await timed(at, token, 'GET', quantities)).ms)
      out.customer.push((await timed(at, token, 'GET', customerQuantities)).ms)
      out.meters.push((await timed(at, token, 'GET', customerMeters)).ms)
    }
    return out
  }
  const restart = async () => {
    await stop(emu)
    const started = performance.now()
    emu = await startEmulator(flags)
    // the first request reads the event log
    await timed(emu.info.production.url, token, 'GET', '/events/?limit=1')
    return performance.now() - started
  }
  const empty = await measure()
  const emptyStart = await restart()
  const loadStarted = performance.now()
  for (let i = 0; i < total; i += 10_000) await timed(emu.info.production.url, token, 'POST', '/events/ingest', scaleBatch(i, 10_000))
  const loadMs = performance.now() - loadStarted
  const full = await measure()
  const fullStart = await restart()
  const check = await timed(emu.info.production.url, token, 'GET', quantities)
  await stop(emu)
  const row = (what, a, b) => [what, fmt(a, 1), fmt(b, 1), fmt(b / a, 1)]
  table(
    `7. ${fmt(total)} stored events (loaded in ${fmt(loadMs / 1000, 1)} s; median ms of ${runs}; quantities total ${fmt(check.body.total)})`,
    ['request', 'empty log', `${fmt(total)} events`, 'ratio'],
    [
      row('POST /events/ingest, 1,000 events', median(empty.ingest), median(full.ingest)),
      row('GET quantities, 31 days by day', median(empty.quantities), median(full.quantities)),
      row('GET quantities of one customer', median(empty.customer), median(full.customer)),
      row("GET one customer's meters", median(empty.meters), median(full.meters)),
      row('emulator start + first request', emptyStart, fullStart),
    ],
  )
}

async function load(data) {
  const PROCESSES = 8
  const EACH = quick ? 100 : 500
  const WINDOW = 10_000
  const emu = await startEmulator(['--data', data, '--rate-limit', '1000/10s', '--fail-rate', '0.05', '--reset-rate', '0.02', '--fault-seed', '3'])
  const env = envFor(emu, {TILL_RATE_LIMIT: '1000/10s'})
  const from = emu.requests.total
  const started = performance.now()
  const runs = Array.from({length: PROCESSES}, (_, p) => {
    const file = join(data, `customers-${p}.jsonl`)
    writeFileSync(
      file,
      Array.from({length: EACH}, (_, i) => `${JSON.stringify({email: `load-${p}-${i}@example.com`, external_id: `load_${p}_${i}`})}\n`).join(''),
    )
    return run(node, [bin, 'customers', 'import', file, '-o', 'jsonl'], env).catch((e) => ({failed: e}))
  })
  const results = await Promise.all(runs)
  const seconds = (performance.now() - started) / 1000
  const times = emu.requests.times.slice(from)
  const limited = emu.requests.limited
  // count what was made, one page at a time
  const seen = new Map()
  for (let page = 1; ; page++) {
    const res = await fetch(`${emu.info.production.url}/customers/?limit=100&page=${page}`, {
      headers: {authorization: `Bearer ${emu.info.production.organization_token}`},
    })
    if (res.status !== 200) continue
    const body = await res.json()
    for (const c of body.items) if (String(c.external_id).startsWith('load_')) seen.set(c.external_id, (seen.get(c.external_id) ?? 0) + 1)
    if (page >= body.pagination.max_page) break
  }
  await stop(emu)
  const exits = results.map((r) => (r.failed ? 'failed' : 'ok'))
  const windows = Math.floor((times.at(-1) - times[0]) / WINDOW) + 1
  table(
    `8. Load: ${PROCESSES} processes x ${EACH} customers, 5% 5xx, 2% cuts, one budget of 1,000 per 10 s`,
    ['customers', 'made once', 'made twice', 'exit 0', 'seconds', 'requests', 'per 10 s (ratio to 1,000)', '429s', '10 s windows'],
    [
      [
        PROCESSES * EACH,
        [...seen.values()].filter((n) => n === 1).length,
        [...seen.values()].filter((n) => n > 1).length,
        `${exits.filter((e) => e === 'ok').length}/${PROCESSES}`,
        fmt(seconds, 1),
        times.length,
        fmt(times.length / windows / 1000, 2),
        limited,
        windows,
      ],
    ],
  )
}

/** The fake sources of case 9, each of `products` products and `customers` customers (test/helpers, loaded with tsx). */
const SOURCES = {
  stripe: async (products, customers) => {
    const {tsImport} = await import('tsx/esm/api')
    const fake = await tsImport('../test/helpers/fake-stripe.ts', import.meta.url)
    const key = `rk_test_${'b3nch'.repeat(8)}`
    const stripe = await fake.startFakeStripe(fake.generatedStripe(products, customers), key)
    return {label: 'Stripe', env: {STRIPE_API_KEY: key}, args: ['--api-base', stripe.url], stop: () => stripe.stop()}
  },
  lemonsqueezy: async (products, customers) => {
    const {tsImport} = await import('tsx/esm/api')
    const fake = await tsImport('../test/helpers/fake-lemonsqueezy.ts', import.meta.url)
    const key = `lsq_${'b3nch'.repeat(8)}`
    const server = fake.fakeLemonSqueezy(fake.lsFixtures({products, customers}), key)
    await server.start()
    return {label: 'Lemon Squeezy', env: {LEMONSQUEEZY_API_KEY: key}, args: ['--api-base', `${server.url}/v1`], stop: () => server.close()}
  },
  paddle: async (products, customers) => {
    const {tsImport} = await import('tsx/esm/api')
    const fake = await tsImport('../test/helpers/fake-paddle.ts', import.meta.url)
    const key = `pdl_sdbx_apikey_${'b3nch'.repeat(8)}`
    const server = fake.fakePaddle(fake.paddleFixtures({products, customers}), key)
    await server.start()
    // one address request per customer would take 42 minutes within Paddle's 240 a minute: left out here
    return {label: 'Paddle', env: {PADDLE_API_KEY: key}, args: ['--api-base', server.url, '--no-addresses'], stop: () => server.close()}
  },
}

async function migrateFrom(name, data) {
  const PRODUCTS = quick ? 200 : 1000
  const CUSTOMERS = quick ? 1000 : 10_000
  const source = await SOURCES[name](PRODUCTS, CUSTOMERS)
  const emu = await startEmulator(['--data', data, '--quiet', '--rate-limit', 'off', '--ip-rate-limit', 'off'])
  // the client's per-minute budget raised (the emulator has no limit); the per-IP budget (100 a second) stays
  const env = envFor(emu, {...source.env, TILL_RATE_LIMIT: '1000000/60s'})
  const total = async (path) => {
    const res = await fetch(`${emu.info.production.url}${path}?limit=1`, {headers: {authorization: `Bearer ${emu.info.production.organization_token}`}})
    return (await res.json()).pagination.total_count
  }
  const before = {products: await total('/products/'), discounts: await total('/discounts/'), customers: await total('/customers/')}
  const steps = []
  const sequence = async (round) => {
    const out = join(data, `move-${round}`)
    const migrate = await run(node, [bin, 'migrate', name, '--out', out, ...source.args, '--json'], env)
    // the plan: changes pending the first time (exit 10), nothing to do the second (exit 0); anything else throws
    await run(node, [bin, 'catalog', 'plan', join(out, 'catalog.yaml')], env, 'pipe', round === 1)
    const apply = round === 1 ? await run(node, [bin, 'catalog', 'apply', join(out, 'catalog.yaml'), '--yes'], env) : {ms: 0}
    const imported = await run(node, [bin, 'customers', 'import', join(out, 'customers.jsonl')], env)
    const summary = /(\d+) created, (\d+) updated/.exec(imported.stderr)
    steps.push([
      round === 1 ? 'first' : 'second',
      fmt(migrate.ms / 1000, 1),
      fmt(apply.ms / 1000, 1),
      fmt(imported.ms / 1000, 1),
      round === 1 ? 'pending' : 'exit 0',
      summary?.[1],
      summary?.[2],
    ])
    return JSON.parse(migrate.stdout)
  }
  const report = await sequence(1)
  const made = {
    products: (await total('/products/')) - before.products,
    discounts: (await total('/discounts/')) - before.discounts,
    customers: (await total('/customers/')) - before.customers,
  }
  await sequence(2)
  await stop(emu)
  await source.stop()
  table(
    `9. Moving to Polar: ${fmt(PRODUCTS)} ${source.label} products and ${fmt(CUSTOMERS)} customers (precheck: ${report.written.products} products, ${report.written.discounts} discounts, ${report.written.customers} customers; created: ${made.products}, ${made.discounts}, ${made.customers})`,
    ['run', 'migrate s', 'catalog apply s', 'customers import s', 'catalog plan', 'customers created', 'customers updated'],
    steps,
  )
}

/** A catalog file of `count` products of one price each. */
function productsFile(file, count) {
  const lines = ['version: 1', 'products:']
  for (let i = 0; i < count; i++)
    lines.push(
      `  bulk-${i}:`,
      `    name: Bulk product ${i}`,
      `    description: Product ${i} of the benchmark's large catalog`,
      '    prices:',
      '      - {type: fixed, amount: "9.00", currency: usd}',
    )
  writeFileSync(file, `${lines.join('\n')}\n`)
  return Buffer.byteLength(readFileSync(file))
}

async function largeCatalog(data) {
  mkdirSync(data, {recursive: true})
  const emu = await startEmulator(['--data', join(data, 'emulator'), '--quiet', '--rate-limit', 'off', '--ip-rate-limit', 'off'])
  const env = envFor(emu)
  const runs = quick ? 1 : 3
  const sizes = quick ? [2000, 20000] : [6000, 60000]
  const measured = []
  for (const count of sizes) {
    const file = join(data, `catalog-${count}.yaml`)
    const bytes = productsFile(file, count)
    const times = []
    for (let i = 0; i < runs; i++) times.push((await run(process.execPath, [bin, 'catalog', 'plan', file], env, 'ignore', true)).ms)
    measured.push({count, bytes, ms: median(times), file})
  }
  // SIGTERM once the reading has started: how long until the process is gone, against the reading's time
  const {file} = measured.at(-1)
  const marks = {}
  const child = spawn(process.execPath, [bin, 'catalog', 'plan', file, '--debug'], {env: {...process.env, ...env}, stdio: ['ignore', 'ignore', 'pipe']})
  let err = ''
  child.stderr.on('data', (d) => {
    err += d
    if (marks.read === undefined && err.includes('[debug] reading the catalog file (')) {
      marks.read = performance.now()
      setTimeout(() => {
        marks.signal = performance.now()
        child.kill('SIGTERM')
      }, 200)
    }
  })
  await new Promise((resolve) => child.once('exit', resolve))
  const stopMs = performance.now() - marks.signal
  await stop(emu)
  const base = measured[0].ms
  table(
    `11. catalog plan of a large file (median of ${runs}; the emulator's seeded catalog)`,
    ['products in the file', 'file MB', 'median ms', 'ratio to the smaller'],
    measured.map((m) => [fmt(m.count), fmt(m.bytes / 1048576, 1), fmt(m.ms), fmt(m.ms / base, 2)]),
  )
  table(
    '11b. SIGTERM while the file is read',
    ['products', 'ms from the signal to the end', 'ms of a whole plan'],
    [[fmt(measured.at(-1).count), fmt(stopMs), fmt(measured.at(-1).ms)]],
  )
}

/** A year of the emulator's clock on a store seeded with `customers` and `orders`: what the walk did, and its time. */
async function clockYearOf(data, customers, orders) {
  const emu = await startEmulator([
    '--data',
    data,
    '--quiet',
    '--customers',
    String(customers),
    '--orders',
    String(orders),
    '--rate-limit',
    'off',
    '--ip-rate-limit',
    'off',
  ])
  const {url, organization_token: token} = emu.info.production
  const headers = {authorization: `Bearer ${token}`}
  const subscriptions = (await (await fetch(`${url}/subscriptions/?limit=1`, {headers})).json()).pagination.total_count
  // through till, as a user does: its request waits for the walk however long the store makes it
  const env = envFor(emu)
  const started = performance.now()
  const r = await run(node, [bin, 'emulator', 'clock', 'advance', '1y', '--json'], env)
  const ms = performance.now() - started
  await stop(emu)
  return {subscriptions, ms, ...JSON.parse(r.stdout)}
}

async function clockYear(data) {
  const big = quick ? [2000, 6000] : [8100, 24300]
  const rows = []
  for (const [name, customers, orders] of [
    ['default store', 25, 60],
    [`${fmt(big[0])} customers`, ...big],
  ]) {
    const r = await clockYearOf(join(data, String(customers)), customers, orders)
    rows.push([name, fmt(r.subscriptions), fmt(r.settled), fmt(r.total_events), fmt(r.ms / 1000, 1), fmt(r.total_events / (r.ms / 1000))])
  }
  table('12. A year of the clock (till emulator clock advance 1y)', ['store', 'subscriptions', 'settled', 'events', 'seconds', 'events/s'], rows)
}

const work = mkdtempSync(join(tmpdir(), 'till-bench-'))
try {
  console.log(
    `till benchmark (${NODES.map(versionOf).join(', ')}${quick ? ', quick' : ''}; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')})`,
  )
  for (const binary of NODES) spawnSync(binary, [bin, '--version'])
  if (wanted(1))
    for (const binary of NODES) {
      node = binary
      await startup(join(work, `small-${versionOf(binary)}`))
    }
  node = NODES[0]
  // `--startup`: only the start-up figures
  if (!process.argv.includes('--startup')) {
    if (wanted(2)) await exportOrders(join(work, 'export'))
    if (wanted(3)) await memory(join(work, 'memory'))
    if (wanted(4)) await pacing(join(work, 'pacing'))
    if (wanted(5)) await metrics(join(work, 'metrics'))
    if (wanted(6)) await ingest(join(work, 'ingest'))
    if (wanted(7)) await scale(join(work, 'scale'))
    if (wanted(8)) await load(join(work, 'load'))
    if (wanted(11)) await largeCatalog(join(work, 'catalog-large'))
    if (wanted(12)) await clockYear(join(work, 'clock'))
    if (wanted(10)) await catalogPlan(join(work, 'catalog'))
    if (wanted(9)) {
      const names =
        process.argv
          .find((a) => a.startsWith('--sources='))
          ?.slice('--sources='.length)
          .split(',') ?? Object.keys(SOURCES)
      for (const name of names) await migrateFrom(name, join(work, `migrate-${name}`))
    }
  }
} finally {
  rmSync(work, {recursive: true, force: true})
}
