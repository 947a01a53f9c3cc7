// A command's USAGE line leads with what is its own (`--status`, `--customer`), then the output and paging
// flags it shares, then the global ones (`-p`, `--debug`), as gh's usage lines do.
import {expect, it} from 'vitest'

import {sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

it("a command's USAGE line names its own flags first and the global ones last", async () => {
  const box = sandbox()
  try {
    const help = await runInProcess(['orders', 'list', '--help'], {env: box.env()})
    expect(help.code, help.stderr).toBe(0)
    const usage = /USAGE\n([\s\S]*?)\n\n/.exec(help.stdout)![1]!.replace(/\s+/g, ' ').trim()
    const at = (flag: string) => usage.indexOf(`[${flag}`)
    expect(usage).toMatch(/^\$ till orders list \[--status /)
    for (const flag of ['--customer', '--since']) expect(at(flag)).toBeLessThan(at('-o'))
    expect(at('-L')).toBeLessThan(at('--json'))
    for (const flag of ['-p', '--debug', '--max-wait', '--color', '--no-input']) expect(at(flag)).toBeGreaterThan(at('--json'))
  } finally {
    box.cleanup()
  }
})
