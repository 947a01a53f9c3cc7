// Careless and hostile input across commands, each answered with one clear line and a documented exit code:
// an upload whose answer is lost names the file it made, an empty upload, credentials in TILL_API_URL, a
// damaged emulator data file, a currency the service does not take, empty names and ids, a malformed
// --filter, `till api` alone, a pasted blob as the token, and text that would reorder a terminal line.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js'
import {api, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {envVars, runCli, sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {lossyProxy} from '../helpers/lossy-proxy.js'

describe('careless and hostile input', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let dir: string
  const vars = (extra: Record<string, string> = {}) => box.env(envVars(env, extra))
  const till = (args: string[], extra: Record<string, string> = {}) => runInProcess(args, {env: vars(extra)})

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    dir = mkdtempSync(join(tmpdir(), 'till-hostile-'))
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    if (dir) rmSync(dir, {recursive: true, force: true})
  })

  it('an upload whose completing answer is lost names the file it created (exit 6)', async () => {
    const proxy = await lossyProxy(new URL(env.url), (method, path) => method === 'POST' && /^\/v1\/files\/[^/]+\/uploaded$/.test(path))
    try {
      const path = join(dir, 'lost.pdf')
      writeFileSync(path, Buffer.alloc(3000, 1))
      const r = await runCli(['files', 'upload', path], {env: box.env(envVars(env, {TILL_API_URL: proxy.url}))})
      // completing an upload is idempotent (src/client/settlement.ts): sent again after each lost answer,
      // as many times as the retry loop allows, always for the one file
      expect(proxy.dropped.length).toBeGreaterThan(1)
      expect(new Set(proxy.dropped).size).toBe(1)
      const id = /^POST \/v1\/files\/([^/]+)\/uploaded$/.exec(proxy.dropped[0]!)![1]!
      expect(r.code).toBe(6)
      expect(r.stderr).toContain(`Error: the answer to completing the upload of ${path} was lost (`)
      expect(r.stderr).toContain(`it created file ${id}, which may or may not be complete`)
      expect(r.stderr).toContain(`Hint: check it before uploading again: till files list --id ${id}`)
      const listed = await api(env, 'GET', `/files/?ids=${id}`)
      expect(listed.body.items.map((f: {id: string}) => f.id)).toEqual([id])
    } finally {
      proxy.server.close()
    }
  })

  it('an empty file is refused before anything is sent, in words', async () => {
    const path = join(dir, 'empty.bin')
    writeFileSync(path, '')
    const r = await till(['files', 'upload', path])
    expect(r.stderr).toBe(`Error: ${path} is empty (0 bytes); the service takes files of at least one byte\nHint: give a file with content\n`)
    expect(r.code).toBe(2)
  })

  it('credentials in TILL_API_URL appear neither in errors nor in --debug', async () => {
    const unreachable = await till(['products', 'list'], {TILL_API_URL: 'http://admin:s3cr3t-pw@127.0.0.1:9/v1'})
    expect(unreachable.code).toBe(6)
    expect(unreachable.stderr).toMatch(/^Error: cannot reach the API at http:\/\/…@127\.0\.0\.1:9\/v1/m)
    expect(unreachable.stderr).not.toContain('s3cr3t')
    expect(unreachable.stderr).not.toContain('admin')
    const url = new URL(env.url)
    const debug = await till(['products', 'list', '--debug', '--limit', '1'], {TILL_API_URL: `http://admin:s3cr3t-pw@${url.host}/v1`})
    expect(debug.stderr).toContain('[debug]')
    expect(debug.stderr).not.toContain('s3cr3t')
  })

  it('a base URL without /v1 is named as such, not taken for an object that does not exist', async () => {
    const origin = env.url.replace(/\/v1$/, '')
    const r = await till(['products', 'list'], {TILL_API_URL: origin})
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `Error: the API at ${origin} has no /products/: the base URL should end in /v1\nHint: give TILL_API_URL (or the profile's --url) with /v1, e.g. ${origin}/v1\n`,
    )
  })

  it('a damaged emulator data file is named with the way out, not an internal error', async () => {
    const data = join(dir, 'emulator-data')
    mkdirSync(data, {recursive: true})
    writeFileSync(join(data, 'production.json'), '{"schema":1,"kind":"se')
    const r = await runCli(['emulator', 'start', '--data', data, '--port', '0'], {env: box.env()})
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`Error: the emulator's data file ${join(data, 'production.json')} is damaged (not JSON: `)
    expect(r.stderr).toContain('Hint: move it away (or delete it) and the emulator seeds that environment again')
    expect(r.stderr).not.toMatch(/internal error/)
  })

  it('a currency the service does not take is refused for discounts as for products, by till and by the emulator', async () => {
    const cli = await till(['discounts', 'create', '--name', 'Odd', '--amount', '5', '--currency', 'zzz'])
    expect(cli.stderr).toMatch(/^Error: --currency zzz is not a currency the service takes$/m)
    expect(cli.code).toBe(2)
    const product = await till(['products', 'create', '--name', 'Odd', '--price', '5', '--currency', 'zzz'])
    expect(product.stderr).toMatch(/^Error: --currency zzz is not a currency the service takes$/m)
    allowRefusals()
    const direct = await api(env, 'POST', '/discounts/', {body: {name: 'Odd', type: 'fixed', duration: 'once', amounts: {zzz: 500}}})
    expect(direct.status).toBe(422)
    const listed = await api(env, 'GET', '/discounts/?query=Odd')
    expect(listed.body.items).toEqual([])
  })

  it('empty values are named as such: --external-id "" and --name ""', async () => {
    const customer = await till(['customers', 'get', '--external-id', ''])
    expect(customer.stderr).toMatch(/^Error: --external-id is empty$/m)
    expect(customer.code).toBe(2)
    const product = await till(['products', 'create', '--name', ''])
    expect(product.stderr).toMatch(/^Error: --name "" is not a product name: the service takes a name of 3-64 characters$/m)
    expect(product.stderr).not.toContain('--price')
    expect(product.code).toBe(2)
  })

  it('a malformed --filter is refused before any request', async () => {
    const r = await till(['events', 'list', '--filter', '{bad', '--debug'])
    expect(r.stderr).toMatch(/^Error: --filter is not JSON \(/m)
    expect(r.stderr).not.toMatch(/GET .*\/events/)
    expect(r.code).toBe(2)
    const shape = await till(['events', 'list', '--filter', '{"clauses":[]}'])
    expect(shape.stderr).toMatch(/^Error: --filter needs "conjunction": "and" or "or"$/m)
    expect(shape.code).toBe(2)
  })

  it('`till api` alone says what it needs in one line and shows an example', async () => {
    const r = await till(['api'])
    expect(r.stderr).toBe('Error: missing the PATH argument (till api [METHOD] PATH)\nHint: e.g. till api /organizations/; see: till api --help\n')
    expect(r.code).toBe(2)
    const one = await till(['products', 'get'])
    expect(one.stderr).toMatch(/^Error: missing the ID argument \(till products get ID\)\nHint: e\.g\. till products get /)
  })

  it('a pasted blob as the token is named as too long, not sent for an "HTTP 431"', async () => {
    const r = await till(['products', 'list'], {TILL_TOKEN: `polar_oat_${'x'.repeat(100_000)}`})
    expect(r.stderr).toMatch(/^Error: TILL_TOKEN is not a valid token: it is 100010 characters long, and a token is under 100/m)
    expect(r.stderr.length).toBeLessThan(400)
    expect(r.code).toBe(4)
  })

  it('characters that reorder or hide text are shown escaped in tables and detail views', async () => {
    const made = await api(env, 'POST', '/customers/', {
      body: {email: `bidi-${Date.now()}@example.com`, name: 'Ann \u202egnp.exe\u202c \u001b[31mred', metadata: {'k\u202e': 'v\u2066'}},
    })
    expect(made.status, made.text).toBe(201)
    const detail = await till(['customers', 'get', made.body.id, '-o', 'table'])
    expect(detail.code, detail.stderr).toBe(0)
    const table = await till(['customers', 'list', '-o', 'table', '--limit', '100'])
    expect(table.code, table.stderr).toBe(0)
    for (const out of [detail.stdout, table.stdout]) {
      expect(out).toContain('Ann \\u202egnp.exe\\u202c \\x1b[31mred')
      expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u001b]/)
    }
    expect(detail.stdout).toContain('k\\u202e')
    expect(detail.stdout).toContain('v\\u2066')
  })
})
