// The one base of till's commands: global flags, and errors turned into one line + exit code.
import {Command, Flags} from '@oclif/core'

import {ExitCode, TillError} from './errors.js'

export abstract class BaseCommand extends Command {
  static override baseFlags = {
    debug: Flags.boolean({description: 'Print request traces and stack traces to stderr.', helpGroup: 'GLOBAL', env: 'TILL_DEBUG'}),
  }

  protected get debugging(): boolean {
    return Boolean(process.env.TILL_DEBUG && process.env.TILL_DEBUG !== '0') || this.argv.includes('--debug')
  }

  protected override async catch(error: Error & {exitCode?: number; oclif?: {exit?: number}}): Promise<unknown> {
    if (error instanceof TillError) {
      process.stderr.write(`Error: ${error.message}\n`)
      if (error.hint) process.stderr.write(`Hint: ${error.hint}\n`)
      if (this.debugging && error.stack) process.stderr.write(`${error.stack}\n`)
      process.exitCode = error.exitCode
      return this.exit(error.exitCode)
    }
    if (error.oclif?.exit !== undefined && error.oclif.exit !== 1) return super.catch(error)
    if (error.message?.startsWith('EEXIT')) return super.catch(error)
    process.stderr.write(`Error: ${error.message}\n`)
    if (this.debugging && error.stack) process.stderr.write(`${error.stack}\n`)
    else process.stderr.write('Run again with --debug for details.\n')
    return this.exit(ExitCode.error)
  }
}
