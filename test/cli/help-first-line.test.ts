// What a script must know of a command stands in the first line of its help, where `till X --help | head -1`
// and the topic listing show it: catalog plan exits 10 (not 0) when changes are pending.
import {describe, expect, it} from 'vitest'

import {sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

describe("a command's first help line", () => {
  it('catalog plan says it exits 10 when changes are pending, in its help and in the topic listing', async () => {
    const box = sandbox()
    try {
      const help = await runInProcess(['catalog', 'plan', '--help'], {env: box.env()})
      expect(help.code, help.stderr).toBe(0)
      expect(help.stdout.split('\n')[0]).toContain('exits 10 when changes are pending')
      const topic = await runInProcess(['catalog', '--help'], {env: box.env()})
      expect(topic.stdout.replace(/\s+/g, ' ')).toContain(
        'catalog plan Show what applying a catalog file to an environment would change; exits 10 when changes are pending.',
      )
    } finally {
      box.cleanup()
    }
  })
})
