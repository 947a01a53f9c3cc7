// The target of a `till migrate` test: an emulator emptied of its seed (so that what a migration creates
// is all there is), and a sandbox whose profile `prod` is signed in to its production environment.
import {expect} from 'vitest'

import {type Sandbox, sandbox} from './cli.js'
import {control, type Emulator, type StartOptions, startEmulator} from './emulator.js'
import {runInProcess} from './in-process.js'

export async function emptyTarget(options: StartOptions = {}): Promise<{emulator: Emulator; box: Sandbox}> {
  const emulator = await startEmulator(options)
  const box = sandbox()
  const env = emulator.production
  const login = await runInProcess(['auth', 'login', '--environment', env.name, '--url', env.url, '--name', 'prod', '--token-stdin'], {
    env: box.env(),
    input: `${env.token}\n`,
  })
  expect(login.code, login.stderr).toBe(0)
  const emptied = await control(env, 'POST', 'empty', {body: {}})
  expect(emptied.status, emptied.text).toBe(200)
  return {emulator, box}
}
