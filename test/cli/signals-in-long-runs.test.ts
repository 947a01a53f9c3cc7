// A Ctrl-C (SIGINT) or SIGTERM during a long run, in a real process: a list of 20,000 orders read with --all
// ends with exit 130 and "Interrupted." as its last word, long before the list would, and `catalog apply
// --yes` of a file of a megabyte stopped before its first write changes nothing. Each signal is sent the
// moment the command reaches the point named by a line on stderr: a list just after its first page, an apply
// as it starts its work.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars, linesOf, spawnCli, type CliResult} from '../helpers/cli.js'
import {listAll} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

const ORDERS = 20_000
const shared = emulatorAndSandbox({orders: ORDERS})

/**
 * Runs `till <args>` and sends `signal` the moment `ready` holds of its stderr lines so far: the result, and
 * how long after the signal it ended.
 */
async function signalWhen(args: string[], signal: NodeJS.Signals, ready: (lines: string[]) => boolean) {
  const running = spawnCli(args, {env: shared.box.env(envVars(shared.emulator.production)), timeoutMs: scaled(120_000)})
  let sent: number | undefined
  running.child.stderr!.on('data', () => {
    if (sent === undefined && ready(running.stderr().split('\n').slice(0, -1))) {
      sent = Date.now()
      running.child.kill(signal)
    }
  })
  const r: CliResult = await running.done
  return {r, after: sent === undefined ? undefined : Date.now() - sent}
}

/** The first debug line after the first answer: the command has read a page and goes on. */
const afterFirstAnswer = (lines: string[]) => {
  const answered = lines.findIndex((line) => line.startsWith('[debug] ← '))
  return answered >= 0 && lines.slice(answered + 1).some((line) => line.startsWith('[debug] '))
}

describe('a signal during a long run', {timeout: scaled(240_000)}, () => {
  const ends = '%s during a list read with --all ends it at once with exit 130, and nothing after "Interrupted."'
  it.each(['SIGINT', 'SIGTERM'] as const)(ends, async (signal) => {
    const list = ['orders', 'list', '--all', '-o', 'jsonl', '--debug']
    const {r, after} = await signalWhen(list, signal, afterFirstAnswer)
    expect(after, r.stderr.slice(-2000)).toBeDefined()
    expect({code: r.code, signal: r.signal}, r.stderr.slice(-2000)).toEqual({code: 130, signal: null})
    expect(r.stderr.endsWith('\nInterrupted.\n'), r.stderr.slice(-2000)).toBe(true)
    // stopped where it was: a few pages written at most, each line whole
    expect(linesOf(r.stdout).length).toBeLessThan(ORDERS / 2)
    expect(r.stdout === '' || r.stdout.endsWith('\n')).toBe(true)
    expect(after!).toBeLessThan(scaled(3000))
  })

  const apply = 'SIGINT as catalog apply --yes of a megabyte file starts its work ends it with 130, changing nothing'
  it(apply, async () => {
    const env = shared.box.env(envVars(shared.emulator.production))
    const pulled = join(shared.box.root, 'pulled.yaml')
    const pull = await spawnCli(['catalog', 'pull', '--out', pulled], {env}).done
    expect(pull.code, pull.stderr).toBe(0)
    // the environment's catalog, one product added, made a megabyte by comments after it
    const file = join(shared.box.root, 'large.yaml')
    const price = '      - {type: fixed, amount: "9.00", currency: usd}'
    const product = `  added-product:\n    name: Added product\n    prices:\n${price}\n`
    const text = readFileSync(pulled, 'utf8').replace('\nproducts:\n', `\nproducts:\n${product}`)
    writeFileSync(file, `${text}\n${`# ${'x'.repeat(98)}\n`.repeat(11_000)}`)
    expect(text).toContain('added-product')
    const kinds = ['/products/', '/meters/', '/benefits/', '/custom-fields/', '/discounts/', '/checkout-links/']
    const catalog = () => Promise.all(kinds.map((path) => listAll(shared.emulator.production, path)))
    const before = await catalog()

    const working = (lines: string[]) => lines.some((line) => line.startsWith('[debug] '))
    const {r} = await signalWhen(['catalog', 'apply', file, '--yes', '--debug'], 'SIGINT', working)
    expect({code: r.code, signal: r.signal}, r.stderr.slice(-2000)).toEqual({code: 130, signal: null})
    expect(r.stderr.endsWith('\nInterrupted.\n'), r.stderr.slice(-2000)).toBe(true)
    expect(r.stderr).not.toMatch(/\[debug\] → (POST|PATCH)/)
    expect(await catalog()).toEqual(before)
  })
})
