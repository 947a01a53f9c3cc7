// The base of every command in src/commands: the command line's base command, knowing the columns of
// every area. Commands import BaseCommand and its flag sets from here.
import {BaseCommand as CliCommand} from '../cli/base-command.js'
import type {ResourceColumns} from '../cli/output/columns.js'

export {type BaseFlags, bulkFlags, bulkWriteFlags, dryRunFlag, outputFlags, pageFlags, type OutputFlagValues} from '../cli/base-command.js'

export abstract class BaseCommand extends CliCommand {
  protected override async columnRegistry(): Promise<Record<string, ResourceColumns>> {
    return (await import('./columns.js')).resourceColumns
  }
}
