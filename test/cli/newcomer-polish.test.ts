// The root help's VERSION line and its one listing of autocomplete, the
// rc-file snippet of the bash setup, `trigger` (a did-you-mean, aligned on a terminal), and the build run
// without oclif's update check. In-process runs, a pseudo-terminal where a terminal matters.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {API_VERSION} from '../../src/client/version.js'
import {closedPort, envVars, KEY, linesOf, runAnswering, runShell, runTty, sandbox, type Sandbox, sh, spawnCli, stripAnsi, TILL} from '../helpers/cli.js'
import {ROOT, sleep, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {renderScreen} from '../helpers/screen.js'
import {scaled} from '../helpers/machine.js'

describe('help, shell setup, pickers, trigger and charts for a newcomer', {timeout: scaled(60_000)}, () => {
  let emulator: Emulator
  let box: Sandbox
  const vars = () => box.env({...envVars(emulator.production), TILL_ENV: 'local'})

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '0s'})
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('the root help names the API version on its VERSION line, and lists autocomplete once (as the topic)', async () => {
    const r = await runInProcess(['--help'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^VERSION\\n  till/\\S+ \\S+ node-v\\S+ polar-api/${API_VERSION}\\n`, 'm'))
    expect(r.stdout.match(/^ {2}autocomplete\b/gm)).toHaveLength(1)
  })

  it('the bash setup appends the script as printed, so the rc file keeps its last newline', async () => {
    const setup = await runInProcess(['autocomplete', 'bash'], {env: box.env()})
    expect(setup.code, setup.stderr).toBe(0)
    expect(setup.stdout).toContain('till autocomplete script bash >> ~/.bashrc')
    expect(setup.stdout).not.toContain('printf "$(')
    // what the snippet does, then another line appended to the same file
    const rc = join(box.root, 'bashrc')
    writeFileSync(rc, '# mine\n')
    const r = await runShell(`${TILL} autocomplete script bash >> ${sh(rc)} && echo 'alias next=1' >> ${sh(rc)}`, {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    expect(linesOf(readFileSync(rc, 'utf8')).at(-1)).toBe('alias next=1')
  })

  it('the build runs oclif without its update check (no "oclif update available")', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts
    const calls = Object.values(scripts).flatMap((line) => line.split('&&').filter((part) => /(^|\s)oclif\s/.test(part)))
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) expect(call.trim()).toMatch(/^OCLIF_SKIP_NEW_VERSION_CHECK=true oclif /)
  })

  it('Ctrl-C on a picker erases it (and an answer leaves one line)', async () => {
    const fresh = sandbox()
    try {
      const command = `${TILL} ${['auth', 'login', '--url', 'https://api.invalid/v1', '--force'].map(sh).join(' ')}`
      const stopped = await runAnswering(command, fresh.env(), [{when: /sandbox \(testing\)/, send: '\x03'}], 20_000, {cols: 80, rows: 24})
      expect(stopped.unanswered, stopped.stdout).toBe(0)
      expect(stopped.code).toBe(130)
      const screen = renderScreen(stopped.raw, 80).join('\n')
      expect(screen).not.toContain('sandbox (testing)')
      expect(screen).not.toContain('production (real customers')
      const answered = await runAnswering(
        command,
        fresh.env(),
        [
          {when: /sandbox \(testing\)/, send: `${KEY.down}${KEY.enter}`},
          {when: /Organization access token \(sandbox\)/, send: '\x03'},
        ],
        scaled(20_000),
        {cols: 80, rows: 24},
      )
      const after = renderScreen(answered.raw, 80)
      expect(after).toContain('Environment of the token: sandbox (testing)')
      expect(after.filter((l) => l.includes('production (real customers'))).toEqual([])
    } finally {
      fresh.cleanup()
    }
  })

  it('emulator start says the local profile uses it, instead of exports to paste, when it does', async () => {
    const fresh = sandbox()
    try {
      const port = await closedPort({pair: true})
      mkdirSync(fresh.configDir, {recursive: true})
      const config = {active: 'local', profiles: {local: {environment: 'local', base_url: `http://127.0.0.1:${port}/v1`}}}
      writeFileSync(join(fresh.configDir, 'config.json'), JSON.stringify(config))
      const running = spawnCli(['emulator', 'start', '--port', String(port), '-q'], {env: fresh.env(), timeoutMs: scaled(60_000)})
      try {
        for (const deadline = Date.now() + scaled(30_000); !running.stdout().includes('Press Ctrl-C') && Date.now() < deadline; ) await sleep(50)
        expect(running.stdout()).toContain('The local profile uses it (its URL, and the token in this data folder): till products list, from any shell.')
        expect(running.stdout()).not.toContain('export TILL_API_URL')
        // and it does
        const listed = await runInProcess(['products', 'list', '--limit', '1'], {env: fresh.env()})
        expect(listed.code, listed.stderr).toBe(0)
        expect(listed.stderr).toBe('')
      } finally {
        running.child.kill('SIGTERM')
        await running.done
      }
    } finally {
      fresh.cleanup()
    }
  })

  it('trigger with a near event name gets a did-you-mean', async () => {
    const r = await runInProcess(['trigger', 'order.payed', '--through-api'], {env: vars()})
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^Error: till cannot trigger "order\.payed" through the API; did you mean order\.paid\?\n/)
  })

  it('what trigger made is aligned on a terminal, tab-separated when piped', async () => {
    const screen = await runTty(`${TILL} trigger order.paid --through-api`, {env: vars()})
    expect(screen.code, screen.stdout).toBe(0)
    // the lines of stdout (the notes of each step, on stderr, come before them)
    const made = linesOf(stripAnsi(screen.stdout)).filter((l) => /^\w+\s+[0-9a-f-]{36}$/.test(l))
    expect(made.length).toBeGreaterThan(1)
    const column = made.map((l) => l.search(/[0-9a-f]{8}-[0-9a-f]{4}-/))
    expect(new Set(column).size, made.join('\n')).toBe(1)
    for (const line of made) expect(line).not.toContain('\t')
    const piped = await runInProcess(['trigger', 'order.paid', '--through-api'], {env: vars()})
    expect(piped.code, piped.stderr).toBe(0)
    for (const line of linesOf(piped.stdout)) expect(line).toMatch(/^\w+\t[0-9a-f-]{36}$/)
  })

  it('at 40 rows the metrics charts are made short enough that the first heading stays on the screen; too few rows for that, they are paged', async () => {
    const headings = /^(Revenue|Orders|Monthly Recurring Revenue|Active Subscriptions)\b/
    const tall = await runTty(`${TILL} metrics`, {env: {...vars(), NO_COLOR: '1', TILL_PAGER: 'false'}, cols: 100, rows: 40})
    expect(tall.code, tall.stdout).toBe(0)
    const lines = stripAnsi(tall.stdout).split('\n')
    // every line, the last newline's empty one for the prompt included, within the 40 rows
    expect(lines.length, tall.stdout).toBeLessThanOrEqual(40)
    expect(lines.filter((l) => headings.test(l))).toHaveLength(4)
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/)
    // 12 rows cannot hold four charts: the pager gets them whole
    const paged = join(box.root, 'paged.txt')
    const short = await runTty(`${TILL} metrics`, {env: {...vars(), NO_COLOR: '1', TILL_PAGER: `cat > ${sh(paged)}`}, cols: 100, rows: 12})
    expect(short.code, short.stdout).toBe(0)
    const text = readFileSync(paged, 'utf8').split('\n')
    expect(text.filter((l) => headings.test(l))).toHaveLength(4)
    expect(text.length).toBeGreaterThan(12)
  })
})
