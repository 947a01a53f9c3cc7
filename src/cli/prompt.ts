// Asking a person, only when one is there: stdin and stdout are terminals, CI is unset, no --no-input.
// Otherwise a missing value fails at once naming the flag, and a confirmation needs --yes. A
// confirmation is also asked on the controlling terminal (/dev/tty) when stdin is a pipe (ids piped
// in) but the output is a terminal, as git and ssh do. What a question shows (its message, the choices'
// names and descriptions, a default) may hold names from the API: shown escaped, never acted on.
import {closeSync, openSync} from 'node:fs'
import {ReadStream, WriteStream} from 'node:tty'

import {canPrompt} from './config/token-input.js'
import type {IO} from './context.js'
import {terminalLines, terminalText} from './output/format.js'
import {ExitCode, TillError, usageError} from '../client/till-error.js'

export interface Choice {
  name: string
  value: string
  description?: string
}

export class Prompter {
  constructor(
    private readonly io: IO,
    private readonly noInput: boolean,
  ) {}

  get interactive(): boolean {
    return canPrompt(this.io, this.noInput)
  }

  /** Whether a confirmation can be asked: on stdin's terminal, or on /dev/tty while stdin is a pipe. */
  get canConfirm(): boolean {
    if (this.interactive) return true
    const terminal = this.controllingTerminal()
    terminal?.close()
    return terminal !== undefined
  }

  /** The controlling terminal, when stdin is a pipe but stdout or stderr is a terminal (and asking is allowed). */
  private controllingTerminal(): {input: ReadStream; output: WriteStream; close: () => void} | undefined {
    if (this.noInput || process.env.CI || this.io.stdinIsTTY || !(this.io.stdoutIsTTY || this.io.stderrIsTTY)) return undefined
    let fds: number[] = []
    try {
      fds = [openSync('/dev/tty', 'r'), openSync('/dev/tty', 'w')]
    } catch {
      for (const fd of fds) closeSync(fd)
      return undefined
    }
    const input = new ReadStream(fds[0]!)
    const output = new WriteStream(fds[1]!)
    return {
      input,
      output,
      close: () => {
        input.destroy()
        output.destroy()
      },
    }
  }

  private missing(flag: string, what: string): TillError {
    return usageError(`missing ${flag}: ${what}`, `pass ${flag}${this.noInput ? '' : ', or run in a terminal to be asked'}`)
  }

  /** The value of `flag`, or asked for on a terminal. */
  async text(flag: string, message: string, opts: {validate?: (v: string) => true | string; default?: string} = {}): Promise<string> {
    if (!this.interactive) throw this.missing(flag, message)
    const {input} = await import('@inquirer/prompts')
    return input({message: terminalLines(message), default: opts.default, validate: opts.validate, required: true})
  }

  /** One of `choices` (fetched lazily, e.g. from the API), asked for on a terminal. */
  async select(flag: string, message: string, choices: () => Promise<Choice[]>): Promise<string> {
    if (!this.interactive) throw this.missing(flag, message)
    const list = await choices()
    if (list.length === 0) throw usageError(`missing ${flag}: ${message}, and there is nothing to choose from`)
    const {select} = await import('@inquirer/prompts')
    // The list is erased when the prompt ends, by an answer or by Ctrl-C (it stayed drawn above what
    // followed); the answer stays as one line. Names from elsewhere are escaped for the terminal.
    const shown = list.map((c) => ({
      value: c.value,
      name: terminalText(c.name),
      description: c.description === undefined ? undefined : terminalText(c.description),
    }))
    const answer = await select({message: terminalLines(message), choices: shown, pageSize: 12}, {clearPromptOnDone: true})
    const chosen = list.find((c) => c.value === answer)
    this.io.stderr.write(`${terminalLines(message)}: ${terminalText(chosen?.name ?? answer)}\n`)
    return answer
  }

  /** A yes/no question on a terminal (stdin's, or /dev/tty while stdin is a pipe); undefined when no one can be asked. */
  async ask(message: string, fallback: boolean): Promise<boolean | undefined> {
    const terminal = this.interactive ? undefined : this.controllingTerminal()
    if (!this.interactive && !terminal) return undefined
    const {confirm} = await import('@inquirer/prompts')
    const question = {message: terminalLines(message), default: fallback}
    try {
      return await (terminal ? confirm(question, {input: terminal.input, output: terminal.output}) : confirm(question))
    } finally {
      terminal?.close()
    }
  }

  /**
   * Confirms a destructive or money-moving action. `summary` says what will happen; on a production
   * profile the environment is named in the question (a command of no profile, such as the emulator's,
   * names only its environment). Without a terminal, --yes is required.
   */
  async confirm(summary: string, opts: {yes?: boolean; environment: string; profile?: string}): Promise<void> {
    if (opts.yes) return
    const profile = opts.profile === undefined ? '' : `, profile ${opts.profile}`
    const where = opts.environment === 'production' ? ` in PRODUCTION (profile ${opts.profile})` : ` (${opts.environment}${profile})`
    const terminal = this.interactive ? undefined : this.controllingTerminal()
    if (!this.interactive && !terminal) {
      const production = opts.environment === 'production' ? ` (this is PRODUCTION, profile ${opts.profile})` : ''
      throw usageError(`--yes is required to ${summary} when not running interactively${production}`)
    }
    const {confirm} = await import('@inquirer/prompts')
    const question = {message: terminalLines(`${summary[0]!.toUpperCase()}${summary.slice(1)}${where}?`), default: false}
    let ok: boolean
    try {
      ok = await (terminal ? confirm(question, {input: terminal.input, output: terminal.output}) : confirm(question))
    } finally {
      terminal?.close()
    }
    if (!ok) throw new DeclinedError('nothing was changed')
  }
}

/**
 * A confirmation answered no: not an error of the user's or of till's, so it is said as it is
 * (`Cancelled; nothing was changed.`), without "Error:", and exits 1 (README "Exit codes"). A `hint`
 * says what else the user can do (a stopped run's --restart and --resume).
 */
export class DeclinedError extends TillError {
  constructor(
    readonly outcome: string,
    hint?: string,
  ) {
    super(`cancelled; ${outcome}`, ExitCode.error, hint)
  }
}
