// Profile names for --profile / -p in the zsh completion script that @oclif/plugin-autocomplete writes to
// its cache (it completes flag names, not their values; bash gets till's own script, ./bash.ts). After
// `till autocomplete`, the script is amended so that the value of --profile is completed with the profiles till knows, asked of till
// itself when completing (as the fish script does). Pure: text in, text out; applying twice changes nothing.

/** The marker that says a script was already amended. */
const MARK = 'till: profile names for --profile'

/** The command that prints one profile name a line (every shell's completion asks it). */
export const profileNamesCommand = (bin: string) => `${bin} profiles list -o tsv --columns name --no-input 2>/dev/null`

export type Amended = {text: string; changed: boolean} | {text: string; changed: false; problem: string}

/**
 * zsh: the --profile flag's value action (the plugin writes `:file:_files`) becomes a function that
 * offers the profile names, defined at the top of the completion function's file.
 */
export function withZshProfiles(script: string, bin: string): Amended {
  if (script.includes(MARK)) return {text: script, changed: false}
  const fn = `_${bin.replaceAll(/[^A-Za-z0-9_]/g, '_')}_profile_names`
  let count = 0
  // `{-p,--profile}"[Profile to use ...]:file:_files"` and, without a short form, `"--profile[...]:file:_files"`.
  // (Not named _till_profiles: the plugin defines that one for the `profiles` topic.)
  const text = script.replaceAll(/(--profile\}?"?\[[^\]\n]*\]):file:_files"/g, (_, spec: string) => {
    count++
    return `${spec}:profile:${fn}"`
  })
  if (count === 0) return {text: script, changed: false, problem: 'the zsh script has no --profile flag to complete'}
  const header = /^#compdef[^\n]*\n/.exec(text)
  const definition = `
# ${MARK}
${fn}() {
  local -a profiles
  profiles=(\${(f)"$(${profileNamesCommand(bin)})"})
  _describe -t profiles 'profile' profiles
}
`
  const at = header ? header[0].length : 0
  return {text: text.slice(0, at) + definition + text.slice(at), changed: true}
}
