// The bash completion function for till, generated from the commands oclif knows (it replaces the one
// @oclif/plugin-autocomplete writes, which treats every word as part of the command: a global flag before
// the command, `till -p sandbox pro<TAB>`, or a flag's value ended completion, and flag values were never
// completed). It reads the line up to the cursor itself, skips flags and the values of flags that take
// one (before the command: the global flags), completes topics and commands word by word, a command's
// flags, the fixed values of a flag (`--status <TAB>`, `--status=<TAB>`) and profile names after -p or
// --profile, asked of till when completing. Pure; bash 3.2 or newer (no associative arrays).

import type {CompletionCommand, CompletionFlag} from './fish.js'
import {profileNamesCommand} from './profiles.js'

/** A bash single-quoted word. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

const forms = (flag: CompletionFlag) => [`--${flag.name}`, ...(flag.char ? [`-${flag.char}`] : [])]

/** The flags every command of the base class has (those with --profile): they may come before the command. */
export function globalFlags(commands: readonly CompletionCommand[]): CompletionFlag[] {
  const based = commands.filter((c) => c.flags.some((f) => f.name === 'profile'))
  if (based.length === 0) return []
  return based[0]!.flags.filter((flag) => based.every((c) => c.flags.some((f) => f.name === flag.name && f.value === flag.value)))
}

/** `case` arms: each distinct body once, with every pattern that leads to it. */
function arms(entries: Array<[pattern: string, body: string]>): string {
  const byBody = new Map<string, string[]>()
  for (const [pattern, body] of entries) byBody.set(body, [...(byBody.get(body) ?? []), pattern])
  return [...byBody].map(([body, patterns]) => `    ${patterns.map(quote).join('|')}) ${body} ;;`).join('\n')
}

export function bashCompletion(bin: string, commands: readonly CompletionCommand[]): string {
  const fn = bin.replaceAll(/[^A-Za-z0-9_]/g, '_')
  const sorted = [...commands].sort((a, b) => a.id.localeCompare(b.id))
  const globals = globalFlags(sorted)
  // "COMMAND FLAG" -> what its value is; the command is '' before it is known (global flags only)
  const valued: Array<[string, CompletionFlag]> = []
  for (const flag of globals.filter((f) => f.value)) for (const form of forms(flag)) valued.push([` ${form}`, flag])
  for (const command of sorted)
    for (const flag of command.flags.filter((f) => f.value)) for (const form of forms(flag)) valued.push([`${command.id} ${form}`, flag])
  const values = (flag: CompletionFlag) =>
    flag.name === 'profile' ? `${profileNamesCommand(bin)}` : flag.options?.length ? `printf '%s\\n' ${flag.options.map(quote).join(' ')}` : ':'
  const flagLists: Array<[string, string]> = [['', `echo ${quote(globals.flatMap(forms).join(' '))}`]]
  for (const command of sorted) flagLists.push([command.id, `echo ${quote(command.flags.flatMap(forms).join(' '))}`])
  return `#!/usr/bin/env bash
# bash completion for ${bin}, written by till (src/areas/completion/bash.ts) over the plugin's own.
# till: profile names for --profile

__${fn}_commands=${quote(sorted.map((c) => c.id).join('\n'))}

# $1 the command ('' when not known yet), $2 a flag: true when the flag takes a value
__${fn}_takes_value() {
  case "$1 $2" in
${arms(valued.map(([pattern]) => [pattern, 'return 0']))}
  esac
  return 1
}

# $1 the command, $2 a flag that takes a value: its possible values, one a line (none when free)
__${fn}_values() {
  case "$1 $2" in
${arms(valued.map(([pattern, flag]) => [pattern, values(flag)]))}
  esac
}

# $1 the command ('' when not known yet): the flags it takes
__${fn}_flags() {
  case "$1" in
${arms(flagLists.map(([id, body]) => [id, body]))}
  esac
}

_${fn}_autocomplete() {
  local line="\${COMP_LINE:0:$COMP_POINT}" IFS=$' \\t\\n'
  local -a words
  read -ra words <<< "$line"
  local n=$(( \${#words[@]} - 1 ))
  # after a space, the word being typed is a new, empty one (zsh's read gives it already)
  if (( n < 0 )) || [[ -n "\${words[n]}" && "$line" == *[[:space:]] ]]; then
    words+=("")
    n=$(( n + 1 ))
  fi
  local cur="\${words[n]}" typed="" cmd="" args=0 skip=0 flag="" i w next
  COMPREPLY=()
  # the words before the cursor: flags (and the values of those that take one) apart, the command, its arguments
  for (( i = 1; i < n; i++ )); do
    w="\${words[i]}"
    if (( skip )); then skip=0; continue; fi
    if [[ "$w" == -* ]]; then
      if [[ "$w" != *=* ]] && __${fn}_takes_value "$cmd" "$w"; then skip=1; flag="$w"; fi
      continue
    fi
    (( args )) && continue
    next="\${typed:+$typed }$w"
    if [[ $'\\n'"$__${fn}_commands"$'\\n' == *$'\\n'"$next"[$'\\n ']* ]]; then
      typed="$next"
      if [[ $'\\n'"$__${fn}_commands"$'\\n' == *$'\\n'"$next"$'\\n'* ]]; then cmd="$next"; else cmd=""; fi
    else
      args=1
    fi
  done
  if (( skip )); then
    COMPREPLY=($(compgen -W "$(__${fn}_values "$cmd" "$flag")" -- "$cur"))
  elif [[ "$cur" == -*=* ]]; then
    local value="\${cur#*=}"
    COMPREPLY=($(compgen -W "$(__${fn}_values "$cmd" "\${cur%%=*}")" -- "$value"))
    # bash replaces only what follows the = when = breaks words (the default); otherwise the whole word
    if [[ "$COMP_WORDBREAKS" != *=* ]]; then COMPREPLY=("\${COMPREPLY[@]/#/\${cur%%=*}=}"); fi
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(__${fn}_flags "$cmd")" -- "$cur"))
  elif (( ! args )); then
    local prefix="\${typed:+$typed }" c rest offered=""
    while IFS= read -r c; do
      [[ "$c" == "$prefix"?* ]] || continue
      rest="\${c#"$prefix"}"
      rest="\${rest%% *}"
      [[ " $offered " == *" $rest "* ]] || offered+="$rest "
    done <<< "$__${fn}_commands"
    COMPREPLY=($(compgen -W "$offered" -- "$cur"))
  fi
  return 0
}

complete -F _${fn}_autocomplete ${bin}
`
}
