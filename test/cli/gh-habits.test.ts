// Command names and flags people bring from gh and the Stripe CLI: `till status` for the profile in use,
// `till auth switch` (gh) or `till profiles switch` for `till profiles use`, and gh's `-q FILTER`, which is
// till's text search. In-process runs against one emulator.
import {describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('command names from gh and the Stripe CLI', {timeout: scaled(60_000)}, () => {
  const shared = emulatorAndSandbox()
  const vars = (extra: Record<string, string> = {}) => shared.box.env({...envVars(shared.emulator.production), TILL_ENV: 'local', ...extra})
  const till = (args: string[], input?: string) => runInProcess(args, {env: vars(), input})

  it('`till status` shows the profile, environment and organization in use, as `till auth status` does', async () => {
    const status = await till(['status'])
    const auth = await till(['auth', 'status'])
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toBe(auth.stdout)
    expect(status.stdout).toMatch(/^local\tlocal\thttp:\/\/127\.0\.0\.1:\d+\/v1\t.+ \([0-9a-f-]{36}\)/)
  })

  it('`till auth switch` and `till profiles switch` make a profile the active one, as `profiles use` does', async () => {
    const added = await till(
      ['profiles', 'add', 'other', '--environment', 'sandbox', '--url', 'http://127.0.0.1:1/v1', '--token-stdin', '--no-verify', '--insecure-storage'],
      'polar_oat_for_a_profile_that_is_never_used\n',
    )
    expect(added.code, added.stderr).toBe(0)
    const switched = await till(['auth', 'switch', 'other'])
    expect(switched.code, switched.stderr).toBe(0)
    expect(switched.stderr).toContain('Active profile: other (sandbox).')
    const back = await till(['profiles', 'switch', 'local'])
    expect(back.code, back.stderr).toBe(0)
    expect(back.stderr).toContain('Active profile: local (local).')
    const unknown = await till(['auth', 'switch', 'othre'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('there is no profile named "othre"; did you mean "other"?')
  })

  it("gh's `-q '.[].id'` is refused, naming the pipe to jq; a text search with -q still runs", async () => {
    const filter = await till(['products', 'list', '-q', '.[].id'])
    expect(filter.code).toBe(2)
    expect(filter.stdout).toBe('')
    expect(filter.stderr).toContain(`Error: -q/--query is till products list's text search, and ".[].id" reads as a jq filter (gh's -q)`)
    expect(filter.stderr).toContain(`Hint: pipe the JSON to jq: till products list --json | jq '.[].id'`)
    const search = await till(['products', 'list', '-q', 'a', '--json', 'name'])
    expect(search.code, search.stderr).toBe(0)
    expect((JSON.parse(search.stdout) as Array<{name: string}>).length).toBeGreaterThan(0)
  })

  it('CLICOLOR_FORCE colours a table written to a pipe, as FORCE_COLOR does; NO_COLOR still wins', async () => {
    const run = (env: Record<string, string>) => runInProcess(['products', 'list', '-o', 'table', '--limit', '2'], {env: vars(env)})
    const forced = await run({CLICOLOR_FORCE: '1'})
    expect(forced.code, forced.stderr).toBe(0)
    expect(forced.stdout).toMatch(/\x1b\[\d/)
    const plain = await run({CLICOLOR_FORCE: '1', NO_COLOR: '1'})
    expect(plain.stdout).not.toMatch(/\x1b\[/)
  })

  it("gh's `--json FIELDS` with a mistyped field names the near one", async () => {
    const r = await till(['products', 'list', '--json', 'idd'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Error: Unknown column "idd". Did you mean "id"? Valid columns: id, ')
  })
})
