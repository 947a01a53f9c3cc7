// A mistyped command: "did you mean", with spaces between the words as they are typed. On a terminal
// (and without --no-input) a single near command is offered to run instead; otherwise the error names
// the nearest commands, exit 2. What was typed is shown redacted and escaped: it may hold a token.
import type {Hook} from '@oclif/core'

import {redact} from '../../client/redact.js'
import {ExitCode} from '../../client/till-error.js'
import {escapeControls} from '../settings.js'
import {HABITS, notACommand, RUN_VERBS, synonymCommand} from '../suggest.js'
import {versionLine} from '../help.js'

const hook: Hook<'command_not_found'> = async function (opts) {
  const {config} = opts
  const words = opts.id.split(':')
  const commands = config.commands
    .filter((c) => !c.hidden)
    .flatMap((c) => [c.id, ...c.aliases])
    .map((id) => id.replaceAll(':', ' '))
  const known = new Set(commands)
  const fail = (message: string, hint: string) => {
    process.stderr.write(`Error: ${message}\nHint: ${hint}\n`)
    this.exit(ExitCode.usage)
  }
  // a habit from another CLI (`till login`, `till whoami`): the till command that does it, or what to use
  const habit = Object.hasOwn(HABITS, words[0]!) ? HABITS[words[0]!] : undefined
  if (habit?.run) {
    process.stderr.write(`(${config.bin} ${words[0]} is ${config.bin} ${habit.run})\n`)
    return config.runCommand(habit.run.replaceAll(' ', ':'), [...words.slice(1), ...(opts.argv ?? [])])
  }
  if (habit?.version && words.length === 1) {
    process.stdout.write(`${versionLine(config)}\n`)
    return
  }
  if (habit?.instead) return fail(`"${words[0]}" is not a ${config.bin} command: ${habit.instead}`, `see the commands with: ${config.bin} --help`)
  // `till products list extra`: the command exists, the words after it are arguments it does not take.
  for (let n = words.length - 1; n > 0; n--) {
    const id = words.slice(0, n).join(' ')
    if (known.has(id)) return fail(`unexpected argument to "${config.bin} ${id}" (not shown)`, `see: ${config.bin} ${id} --help`)
  }
  // `show` and `view` (gh's verb) are `get`, `ls` is `list`, as everywhere: one verb for one view, the others accepted
  const synonym = synonymCommand(words.join(' '), commands)
  const n = synonym?.split(' ').length ?? 0
  if (synonym && RUN_VERBS.has(words[n - 1]!)) {
    return config.runCommand(synonym.replaceAll(' ', ':'), [...words.slice(n), ...(opts.argv ?? [])])
  }
  // the first words name the command (the topics' and one verb); any after them are arguments, never shown
  let named = 1
  while (named < 3 && config.findTopic(words.slice(0, named).join(':'))) named++
  named = Math.min(words.length, Math.max(named, 2))
  const head = words.slice(0, named).join(' ')
  const shown = escapeControls(redact(head.length > 60 ? `${head.slice(0, 60)}…` : head)) + (words.length > named ? ' …' : '')
  const topics = config.topics.filter((t) => !t.hidden).map((t) => t.name.replaceAll(':', ' '))
  const said = notACommand(words, shown, {commands, topics, bin: config.bin, isTopic: (w) => Boolean(config.findTopic(w))})
  const suggestions = said.suggestions
  const interactive = process.stdin.isTTY && process.stderr.isTTY && !opts.argv?.includes('--no-input') && !process.env.CI
  // a command is offered to run at once; a topic (`till prodcts`) is only named
  if (interactive && suggestions.length === 1 && known.has(suggestions[0]!)) {
    const {confirm} = await import('@inquirer/prompts')
    process.stderr.write(`"${shown}" is not a ${config.bin} command.\n`)
    const yes = await confirm({message: `Did you mean ${config.bin} ${suggestions[0]}?`, default: true}, {output: process.stderr})
    const id = suggestions[0]!
    // the typed words past the command's own are its arguments, as they would have been
    if (yes) return config.runCommand(id.replaceAll(' ', ':'), [...words.slice(id.split(' ').length), ...(opts.argv ?? [])])
  }
  return fail(said.message, said.hint)
}

export default hook
