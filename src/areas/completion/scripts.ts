// `till completion bash|zsh|fish`: the whole completion script for a shell, printed, so that a line in the
// shell's startup file (`source <(till completion bash)`) sets it up without the cache `till autocomplete`
// writes (a cleared cache no longer breaks the shell's completion).
import type {Interfaces} from '@oclif/core'

import {bashCompletion} from './bash.js'
import {completionCommands, completionTopics} from './commands.js'
import {fishCompletion} from './fish.js'

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

/**
 * zsh runs the bash function through its bashcompinit (bash's `complete` and `compgen`, in sh emulation:
 * arrays from 0); only zsh's read takes -A, not -a, for an array.
 */
function zshCompletion(bin: string, bash: string): string {
  return `# ${bin} completion for zsh: source <(${bin} completion zsh) in ~/.zshrc
(( \${+functions[compdef]} )) || { autoload -U +X compinit && compinit }
autoload -U +X bashcompinit && bashcompinit
${bash.replace('read -ra words', 'read -rA words')}`
}

export function completionScript(shell: Shell, config: Interfaces.Config): string {
  const commands = completionCommands(config)
  if (shell === 'fish') return fishCompletion(config.bin, commands, completionTopics(config))
  const bash = bashCompletion(config.bin, commands)
  return shell === 'zsh' ? zshCompletion(config.bin, bash) : bash
}
