import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {requireEmulator} from '../../areas/emulator/control.js'
import {logLine, pathFilter, readLogs, statusFilter} from '../../areas/emulator/logs.js'

export default class EmulatorLogs extends BaseCommand {
  static override summary = 'Show the requests the emulator answered, and with --follow those that come after.'
  static override description =
    `Reads the request log of the profile's emulator environment (the last 1,000 requests it answered, kept in memory while it runs): one line per request with its time, status, method, path and query, how long it took and its request id. Tokens and bodies are never kept: a token in a query or path is masked. --status keeps a class of statuses (4xx, 5xx) or one status (404), comma-separated for several; --path keeps the paths that start with it. --json prints each request as one JSON line. --follow prints the requests that come after, as they come, until Ctrl-C (exit 130).`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Follow the failing requests', command: '<%= config.bin %> <%= command.id %> --follow --status 4xx,5xx'},
    {description: "Orders' requests as JSON lines", command: '<%= config.bin %> <%= command.id %> --path /v1/orders --json | jq .status'},
  ]

  static override flags = {
    follow: Flags.boolean({char: 'f', description: 'Go on printing the requests that come after, until Ctrl-C.'}),
    status: Flags.string({description: 'Only these statuses: a class (4xx, 5xx) or a status (404), comma-separated.'}),
    path: Flags.string({description: 'Only the paths that start with this (e.g. /v1/orders).'}),
    json: Flags.boolean({description: 'Print each request as one JSON line.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(EmulatorLogs)
    const [status, path] = [statusFilter(flags.status), pathFilter(flags.path)]
    requireEmulator(this.ctx.profile)
    this.ctx.needsSharedEmulator = 'till emulator logs needs a running emulator, since one run inside this command would have answered no other request'
    const out = this.ctx.io.stdout
    await readLogs(await this.ctx.client(), {
      follow: flags.follow,
      keep: (r) => status(r.status) && path(r.path),
      print: (r) => out.write(`${flags.json ? JSON.stringify(r) : logLine(r)}\n`),
    })
  }
}
