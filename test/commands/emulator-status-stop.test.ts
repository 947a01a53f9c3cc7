// `till emulator status` and `till emulator stop` find the emulator `till emulator start` (or `start --detach`,
// in the background) keeps running on a data folder, from another process: status prints its URLs, pid and
// folder; stop sends SIGTERM and waits for it to exit; with none running, both say so and exit 1.
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {waitUntil} from '../helpers/machine.js'

describe('till emulator status and stop', () => {
  let box: Sandbox
  let data: string
  beforeAll(() => {
    box = sandbox()
    data = join(box.root, 'emulator-data')
  })
  afterAll(() => box.cleanup())

  it('status shows the running emulator, stop ends it; with none running both exit 1', async () => {
    const env = box.env()
    const none = await runCli(['emulator', 'status', '--data', data], {env})
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(`no emulator runs on the data folder ${data}`)

    const started = spawnCli(['emulator', 'start', '--port', '0', '--data', data, '--json', '--quiet'], {env})
    try {
      expect(await waitUntil(() => started.stdout().includes('\n'), 30_000), started.stderr()).toBe(true)
      const {environments} = JSON.parse(started.stdout()) as {environments: Record<string, {url: string}>}
      const status = await runCli(['emulator', 'status', '--data', data, '--json'], {env})
      expect(status.code, status.stderr).toBe(0)
      expect(JSON.parse(status.stdout)).toMatchObject({
        pid: started.child.pid,
        data,
        environments: {production: {url: environments.production!.url}, sandbox: {url: environments.sandbox!.url}},
      })
      const shown = await runCli(['emulator', 'status', '--data', data], {env})
      expect(shown.stdout).toContain(`pid ${started.child.pid}`)
      expect(shown.stdout).toContain(environments.production!.url)

      const stopped = await runCli(['emulator', 'stop', '--data', data], {env})
      expect(stopped.code, stopped.stderr).toBe(0)
      expect(stopped.stderr).toContain(`Stopped the emulator (pid ${started.child.pid})`)
      // it exited cleanly, its stores saved
      expect((await started.done).code).toBe(0)
      const after = await runCli(['emulator', 'stop', '--data', data], {env})
      expect(after.code).toBe(1)
    } finally {
      started.child.kill('SIGKILL')
    }
  })

  it('start --detach returns once the emulator answers, with its URLs; stop ends it', async () => {
    const env = box.env()
    const folder = join(box.root, 'detached')
    let pid: number | undefined
    try {
      const started = await runCli(['emulator', 'start', '--detach', '--port', '0', '--data', folder, '--json'], {env})
      expect(started.code, started.stderr).toBe(0)
      const running = JSON.parse(started.stdout) as {pid: number; environments: Record<string, {url: string}>}
      pid = running.pid
      expect(running.pid).not.toBe(undefined)
      // it answers already: the first request needs no wait
      const answer = await fetch(`${running.environments.production!.url}/products/`)
      expect(answer.status).toBe(401)
      const status = await runCli(['emulator', 'status', '--data', folder, '--json'], {env})
      expect(JSON.parse(status.stdout).pid).toBe(running.pid)
      const stopped = await runCli(['emulator', 'stop', '--data', folder], {env})
      expect(stopped.code, stopped.stderr).toBe(0)
      const gone = await runCli(['emulator', 'status', '--data', folder], {env})
      expect(gone.code).toBe(1)
    } finally {
      try {
        if (pid) process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
  })
})
