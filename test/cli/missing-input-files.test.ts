// A missing input file is named as missing, exit 2, by every command that reads one,
// with no hint at --debug, which would add only the errno code.
import {expect, it} from 'vitest'

import {emulatorAndSandbox, envVars} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const shared = emulatorAndSandbox()

const cases: Array<[string[], string]> = [
  [['customers', 'import', 'move/customers.jsonl'], 'move/customers.jsonl'],
  [['catalog', 'plan', 'move/catalog.yaml'], 'move/catalog.yaml'],
  [['catalog', 'apply', 'move/catalog.yaml', '--yes'], 'move/catalog.yaml'],
  [['events', 'ingest', 'move/usage.jsonl'], 'move/usage.jsonl'],
  [['files', 'upload', 'move/handbook.pdf'], 'move/handbook.pdf'],
  [['webhooks', 'verify', '--body', 'move/body.json', '--headers', 'move/headers.txt', '--secret-stdin'], 'move/body.json'],
  [['metrics', 'dashboards', 'create', '--input', 'move/dashboard.json'], 'move/dashboard.json'],
  [['api', 'POST', '/customers/', '--input', 'move/customer.json'], 'move/customer.json'],
]

it.each(cases)('till %j names the missing file, exit 2, no --debug hint', async (args, file) => {
  const r = await runInProcess(args, {env: shared.box.env(envVars(shared.emulator.production)), cwd: shared.box.root, input: 'whsec_x\n'})
  expect(r.code, r.stderr).toBe(2)
  expect(r.stderr).toMatch(new RegExp(`^Error: cannot read .*${file.replace('.', '\\.')}: no such file`, 'm'))
  expect(r.stderr).not.toMatch(/--debug/)
})
