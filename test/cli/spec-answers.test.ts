// Every command of till that only reads (each list, get, show, export...) against a server that answers
// with samples of the published OpenAPI document (test/helpers/spec-server.ts), in every output format
// the command offers, across the sampler's passes: nullable fields null, enum values and union members the
// document does not name yet, negative / zero / huge amounts and 500-character strings, empty lists. Each
// run must exit 0 with no internal error: a record till cannot fully present is shown with what it has.
//
// The commands are not a hand-kept list: `scripts/api-coverage.js --json` says which requests each command
// sends (those sending only GETs are the ones here) and `oclif.manifest.json` gives their arguments (a
// sampled uuid each) and whether they offer -o and --json.
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'
import {sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {documented, PASSES, startSpecServer, type Pass, type SpecServer} from '../helpers/spec-server.js'
import {scaled} from '../helpers/machine.js'

/** Read-only commands left out, and why. */
const SKIPPED: Record<string, string> = {
  listen: 'follows the event stream until interrupted (covered by test/commands/listen*.test.ts)',
  'profiles add': 'writes a profile and reads a token from stdin: not a read of the API',
}

interface ManifestCommand {
  args: Record<string, {name: string; required?: boolean}>
  flags: Record<string, {name: string; type: string; required?: boolean; options?: string[]}>
  enableJsonFlag?: boolean
}

interface Case {
  command: string
  args: string[]
  formats: string[][]
}

const ID = '7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d'

/** Flags a command needs one of (oclif's `exclusive` pairs, which the manifest does not mark required). */
const ONE_OF: Record<string, string[]> = {
  'seats list': ['--subscription', ID],
  'portal seats list': ['--subscription', ID],
}

/** Each read-only command with its arguments and the output choices it offers. */
function cases(box: Sandbox): Case[] {
  const coverage = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'api-coverage.js'), '--json'], {cwd: ROOT, encoding: 'utf8'})) as {
    till: Record<string, string[]>
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, ManifestCommand>}
  const out: Case[] = []
  for (const [command, requests] of Object.entries(coverage.till)) {
    // every command may create a customer session for --as-customer: not a request of its own
    const own = requests.filter((r) => r !== 'POST /v1/customer-sessions/')
    const readOnly = own.length > 0 && own.every((r) => r.startsWith('GET '))
    if (!(readOnly || command === 'catalog pull') || SKIPPED[command]) continue
    const undocumented = own.filter((r) => r.startsWith('GET ') && !documented(r))
    if (undocumented.length > 0) {
      // the server can only answer what the document describes
      SKIPPED[command] = `sends ${undocumented.join(', ')}, which the published document does not describe`
      continue
    }
    const spec = manifest.commands[command.replaceAll(' ', ':')]
    if (!spec) throw new Error(`"${command}" is not in oclif.manifest.json`)
    const args = [...Object.values(spec.args).map(() => ID), ...(ONE_OF[command] ?? [])]
    for (const flag of Object.values(spec.flags)) {
      if (flag.required && flag.type === 'option') args.push(`--${flag.name}`, join(box.root, `${command.replaceAll(' ', '-')}.${flag.name}`))
    }
    const formats: string[][] = (spec.flags.output?.options ?? []).map((f) => ['-o', f])
    if (spec.enableJsonFlag) formats.push(['--json'])
    if (formats.length === 0 || !spec.flags.output) formats.unshift([])
    out.push({command, args, formats})
  }
  return out
}

/** What an internal error looks like on stderr: till's own message, a stack frame, a JS error name. */
const INTERNAL = /internal error|\n\s+at .+[:(]\d+|TypeError|RangeError|ReferenceError|SyntaxError|Cannot read properties/

describe('till reads every answer the published document allows', () => {
  let box: Sandbox
  const servers = new Map<Pass, SpecServer>()
  let all: Case[] = []

  // five passes of the whole document reshaped and sampled: seconds of CPU, more with five other files at work
  beforeAll(async () => {
    box = sandbox()
    for (const pass of PASSES) servers.set(pass, await startSpecServer(pass))
    all = cases(box)
  }, scaled(120_000))

  afterAll(async () => {
    for (const server of servers.values()) await server.close()
    box?.cleanup()
  })

  it('finds the commands to run from the coverage report and the manifest', () => {
    const names = all.map((c) => c.command)
    // a sample of what must be there: lists, gets, the portal, metrics, exports and the catalog
    for (const name of ['orders list', 'products get', 'metrics', 'metrics list', 'portal orders list', 'customers export', 'catalog pull'])
      expect(names).toContain(name)
    expect(names.length).toBeGreaterThan(50)
    for (const c of all) expect(c.formats.length, c.command).toBeGreaterThan(0)
  })

  it('runs each command in every format and every pass without an internal error', {timeout: scaled(300_000)}, async () => {
    // each command runs once per pass and once per format: run i uses pass i and format i (cycling the
    // shorter list, shifted per command), so every format and every pass meets every command
    const runs: Array<{c: Case; pass: Pass; format: string[]}> = []
    all.forEach((c, n) => {
      const count = Math.max(PASSES.length, c.formats.length)
      for (let i = 0; i < count; i++) runs.push({c, pass: PASSES[i % PASSES.length]!, format: c.formats[(i + n) % c.formats.length]!})
    })
    const failures: string[] = []
    const queue = [...runs]
    const worker = async () => {
      for (let run = queue.shift(); run; run = queue.shift()) {
        const server = servers.get(run.pass)!
        const argv = [...run.c.command.split(' '), ...run.c.args, ...run.format]
        const result: CliResult = await runInProcess(argv, {
          env: box.env({
            TILL_API_URL: server.url,
            TILL_TOKEN: 'polar_oat_specsampledanswers0000000000000',
            TILL_CUSTOMER_TOKEN: 'polar_cst_specsampledanswers0000000000000',
            COLUMNS: '120',
          }),
        })
        if (result.code !== 0 || INTERNAL.test(result.stderr)) {
          failures.push(
            `[${run.pass}] till ${argv.join(' ')} -> exit ${result.code ?? result.signal}\n${result.stderr.trim().split('\n').slice(0, 6).join('\n')}`,
          )
        }
      }
    }
    // in-process runs take turns in the worker: one queue is as fast as four
    await worker()
    expect(failures, failures.join('\n\n')).toEqual([])
    // what was left out, and why, for whoever reads the run
    for (const [command, reason] of Object.entries(SKIPPED)) console.log(`skipped: till ${command}: ${reason}`)
  })
})
