// till's help: oclif's, with a start-here section and the global flags at the top of the root help (as gh
// shows its core commands first), and "did you mean" for `till help ordrs` / `till ordrs --help`, which
// oclif answers with "Command ordrs not found."; a command's USAGE line names its own flags first (see usageOrder).
import {type Command, Errors, Help, type Interfaces} from '@oclif/core'

import {redact} from '../client/redact.js'
import {API_VERSION} from '../client/version.js'
import {ExitCode} from '../client/till-error.js'
import {outputFlags, pageFlags} from './flags.js'
import {escapeControls} from './settings.js'
import {notACommand, RUN_VERBS, synonymCommand} from './suggest.js'

/** The five commands a newcomer needs first, with what each does. */
export const START_HERE: ReadonlyArray<[string, string]> = [
  ['products list', 'the products of the local demo organization'],
  ['orders list --status paid', 'paid orders; --all for every page, --json'],
  ['emulator start', 'keep a local production + sandbox running'],
  ['auth login', 'sign in to production or sandbox'],
  ['profiles list', 'your profiles; use one with -p NAME'],
]

/** The global flags, as the root help lists them. */
const GLOBAL_FLAGS: ReadonlyArray<[string, string]> = [
  ['-p, --profile NAME', 'the profile to use (default: the active one)'],
  ['-o, --output FORMAT', 'table, json, jsonl, csv, tsv (--json: -o json)'],
  ['--no-input', 'never prompt: fail naming the missing flag'],
  ['--debug', 'trace each request on stderr (tokens redacted)'],
  ['-h, --help', 'help of any command: till help TOPIC [COMMAND]'],
]

/**
 * The version line, as `till --version` (bin/run.js) says it: the command's name rather than the package's
 * (oclif's userAgent says till-cli), with the API version.
 */
export function versionLine(config: Interfaces.Config): string {
  return `${config.bin}/${config.version} ${config.platform}-${config.arch} node-${process.version} polar-api/${API_VERSION}`
}

/** Flags many commands share: after a command's own in its USAGE line, before `--json` and the global ones. */
const SHARED_FLAGS = new Set([...Object.keys(pageFlags), ...Object.keys(outputFlags)])
const rank = (name: string, flag: {helpGroup?: string}) => (flag.helpGroup === 'GLOBAL' ? 3 : name === 'json' ? 2 : SHARED_FLAGS.has(name) ? 1 : 0)

/** A command's flags as its USAGE line lists them: its own, then the shared ones, `--json`, the global ones. */
export function usageOrder<T extends {helpGroup?: string}>(flags: Record<string, T>): Record<string, T> {
  // (sort is stable: each group keeps its order)
  return Object.fromEntries(Object.entries(flags).sort((a, b) => rank(...a) - rank(...b)))
}

export default class TillHelp extends Help {
  override formatCommand(command: Command.Loadable): string {
    return super.formatCommand({...command, flags: usageOrder(command.flags)})
  }

  protected override async showRootHelp(): Promise<void> {
    const bin = this.config.bin
    const rows = (list: ReadonlyArray<[string, string]>) => {
      const width = Math.max(...list.map(([left]) => left.length))
      return list.map(([left, right]) => `${left.padEnd(width)}  ${right}`).join('\n')
    }
    // the VERSION line as `till --version` says it, with the API version
    this.log(this.formatRoot().replace(this.config.userAgent, versionLine(this.config)))
    this.log('')
    this.log(this.section('START HERE', rows(START_HERE.map(([command, what]) => [`${bin} ${command}`, what]))))
    this.log('')
    this.log(this.section('GLOBAL FLAGS', rows(GLOBAL_FLAGS)))
    this.log('')
    const topics = this.sortedTopics.filter((t) => !t.name.includes(':'))
    if (topics.length > 0) {
      this.log(this.formatTopics(topics))
      this.log('')
    }
    // a command that is also a topic (autocomplete) is listed once, as the topic, whose text names the command
    const topicNames = new Set(topics.map((t) => t.name))
    const commands = this.sortedCommands.filter((c) => c.id && !c.id.includes(':') && !topicNames.has(c.id))
    if (commands.length > 0) {
      this.log(this.formatCommands(commands))
      this.log('')
    }
  }

  override async showHelp(argv: string[]): Promise<void> {
    try {
      await super.showHelp(argv)
    } catch (error) {
      const missing = /^Command (.+) not found\.$/.exec((error as Error).message ?? '')
      if (!missing) throw error
      const words = missing[1]!.split(/[: ]/)
      const commands = this.config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases].map((id) => id.replaceAll(':', ' ')))
      // `orders show --help` is the help of `orders get`, as `orders show ID` runs it
      const synonym = synonymCommand(words.join(' '), commands)
      if (synonym && RUN_VERBS.has(words[synonym.split(' ').length - 1]!)) return super.showHelp([...synonym.split(' '), ...argv.slice(words.length)])
      const topics = this.config.topics.filter((t) => !t.hidden).map((t) => t.name.replaceAll(':', ' '))
      const shown = escapeControls(redact(words.slice(0, 3).join(' ')))
      const said = notACommand(words, shown, {commands, topics, bin: this.config.bin, isTopic: (w) => Boolean(this.config.findTopic(w))})
      process.stderr.write(`Error: ${said.message}\nHint: ${said.hint}\n`)
      throw new Errors.ExitError(ExitCode.usage)
    }
  }
}
