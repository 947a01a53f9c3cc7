// The API client is a library a Node script can import (`till-cli/client`), with no command line in it:
// a script lists every order through it, and src/client imports nothing of the command line's packages.
import {execFile} from 'node:child_process'
import {readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {promisify} from 'node:util'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {listAll, ROOT, startEmulator, type Emulator} from '../helpers/emulator.js'
import {sandbox, type Sandbox} from '../helpers/cli.js'

const run = promisify(execFile)

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every module specifier a file imports, statically or with `import()`. */
const specifiers = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!)

describe('src/client as a library', () => {
  let emulator: Emulator
  let box: Sandbox
  beforeAll(async () => {
    emulator = await startEmulator({orders: 230})
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('a Node script imports till-cli/client and streams every order, in order, with the count the API gives', async () => {
    // In the package folder, so that `till-cli/client` resolves through package.json "exports".
    const script = join(ROOT, 'test', 'client', `.export-${process.pid}.mjs`)
    writeFileSync(
      script,
      [
        "import {createClient, listOrders} from 'till-cli/client'",
        'const client = createClient({baseUrl: process.env.BASE, token: process.env.TOKEN, paceFile: process.env.PACE})',
        'const ids = []',
        'for await (const order of listOrders(client, {}, {limit: 100, all: true})) ids.push(order.id)',
        'await client.close()',
        'process.stdout.write(JSON.stringify(ids))',
      ].join('\n'),
    )
    const env = {...process.env, BASE: emulator.production.url, TOKEN: emulator.production.token, PACE: join(box.dataDir, 'pace.json')}
    try {
      const {stdout} = await run(process.execPath, [script], {env, cwd: ROOT})
      const ids = JSON.parse(stdout) as string[]
      const expected = (await listAll(emulator.production, '/orders/', 'sorting=-created_at')).map((o: {id: string}) => o.id)
      expect(ids.length).toBeGreaterThan(200)
      expect(ids).toEqual(expected)
    } finally {
      rmSync(script, {force: true})
    }
  })

  it('the package exports till-cli/client with its types', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {exports: Record<string, {types: string; default: string}>}
    expect(pkg.exports['./client']).toEqual({types: './dist/client/index.d.ts', default: './dist/client/index.js'})
    expect(statSync(join(ROOT, 'dist', 'client', 'index.d.ts')).isFile()).toBe(true)
  })
})

describe('which way the imports go', () => {
  const forbiddenInClient = /^(@oclif\/|chalk$|@inquirer\/|cli-table3$|conf$)/
  it('src/client imports nothing of oclif, chalk, inquirer, cli-table3 or conf, and nothing outside src/client', () => {
    const offences: string[] = []
    for (const file of sources(join(ROOT, 'src', 'client'))) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const outside = spec.startsWith('.') && !join(file, '..', spec).startsWith(join(ROOT, 'src', 'client'))
        if (forbiddenInClient.test(spec) || outside) offences.push(`${relative(ROOT, file)} imports ${spec}`)
      }
    }
    expect(offences).toEqual([])
  })

  it('nothing imports the commands; the command line and the emulator import no area; the client imports neither', () => {
    const offences: string[] = []
    const layer = (path: string) => relative(join(ROOT, 'src'), path).split('/')[0]!
    const allowed: Record<string, string[]> = {
      commands: ['commands', 'areas', 'cli', 'client', 'emulator'],
      areas: ['areas', 'cli', 'client'],
      cli: ['cli', 'client', 'emulator'],
      client: ['client'],
      emulator: ['emulator', 'client'],
    }
    for (const file of sources(join(ROOT, 'src'))) {
      const from = layer(file)
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue
        const to = layer(join(file, '..', spec))
        if (to === 'commands' && from !== 'commands') offences.push(`${relative(ROOT, file)} imports ${spec}`)
        else if (!(allowed[from] ?? []).includes(to)) offences.push(`${relative(ROOT, file)} (${from}) imports ${spec} (${to})`)
      }
    }
    expect(offences).toEqual([])
  })
})
