// A fish completion script for till, generated from the commands oclif knows: topics and commands word
// by word (space-separated, as they are typed), each command's flags with their summaries and fixed
// options, and profile names for --profile / -p, asked of till itself when completing. Pure.

import {profileNamesCommand} from './profiles.js'

export interface CompletionFlag {
  name: string
  char?: string
  summary?: string
  /** Takes a value (otherwise a switch). */
  value: boolean
  options?: readonly string[]
}

export interface CompletionCommand {
  /** Words separated by spaces: `products list`. */
  id: string
  summary?: string
  flags: CompletionFlag[]
}

/** A fish single-quoted string. */
const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
/** The first line of a summary, short enough for a completion menu. */
const describe = (text = '') => {
  const line = text.split('\n')[0]!.trim()
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

const HELPERS = (bin: string) => `# fish completion for ${bin}: save as ~/.config/fish/completions/${bin}.fish
# The words typed so far after '${bin}', without flags and the values of flags that take one.
function __${bin}_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
        else if string match -qr -- '^-' $word
            string match -qr -- '^(-p|--profile|--max-wait|-o|--output|--columns)$' $word; and set skip 1
        else
            echo $word
        end
    end
end
# True when the words typed are exactly the arguments.
function __${bin}_at
    set -l typed (__${bin}_words)
    test "$typed" = "$argv"
end
# True when the words typed start with the arguments (the command is chosen).
function __${bin}_in
    set -l typed (__${bin}_words)
    set -l n (count $argv)
    test (count $typed) -ge $n; and test "$typed[1..$n]" = "$argv"
end
complete -c ${bin} -f
`

/** The whole script. `topics` describes the topic words (`products`, `portal orders`). */
export function fishCompletion(bin: string, commands: readonly CompletionCommand[], topics: Record<string, string | undefined>): string {
  const lines: string[] = [HELPERS(bin)]
  // every word that may come next after each prefix of typed words
  const next = new Map<string, Map<string, string>>()
  const offer = (prefix: string, word: string, description: string) => {
    const words = next.get(prefix) ?? new Map<string, string>()
    if (!words.has(word) || description) words.set(word, description)
    next.set(prefix, words)
  }
  for (const command of [...commands].sort((a, b) => a.id.localeCompare(b.id))) {
    const words = command.id.split(' ')
    for (let i = 0; i < words.length; i++) {
      const prefix = words.slice(0, i).join(' ')
      const path = words.slice(0, i + 1).join(' ')
      offer(prefix, words[i]!, i === words.length - 1 ? describe(command.summary) : describe(topics[path]))
    }
  }
  for (const [prefix, words] of next) {
    for (const [word, description] of words) {
      lines.push(`complete -c ${bin} -n ${quote(`__${bin}_at ${prefix}`.trim())} -a ${quote(word)}${description ? ` -d ${quote(description)}` : ''}`)
    }
  }
  for (const command of commands) {
    const when = quote(`__${bin}_in ${command.id}`)
    for (const flag of command.flags) {
      let line = `complete -c ${bin} -n ${when} -l ${flag.name}`
      if (flag.char) line += ` -s ${flag.char}`
      if (flag.name === 'profile') line += ` -x -a ${quote(`(${profileNamesCommand(bin)})`)}`
      else if (flag.options?.length) line += ` -x -a ${quote(flag.options.join(' '))}`
      else if (flag.value) line += ' -r'
      if (flag.summary) line += ` -d ${quote(describe(flag.summary))}`
      lines.push(line)
    }
  }
  return `${lines.join('\n')}\n`
}
