import {describe, expect, it} from 'vitest'

import {withZshProfiles} from './profiles.js'

const zsh = `#compdef till

_till_products_list() {
  _arguments -S \\
"(-p --profile)"{-p,--profile}"[Profile to use (default: the active one).]:file:_files" \\
"--limit[Items per page.]:file:_files" \\
"--help[Show help for command]" \\
"*: :_files"
}
`

describe('profile names in the zsh script', () => {
  it("replaces the --profile value's file completion by a function listing the profiles, defined after #compdef", () => {
    const r = withZshProfiles(zsh, 'till')
    expect(r.changed).toBe(true)
    expect(r.text).toContain('{-p,--profile}"[Profile to use (default: the active one).]:profile:_till_profile_names"')
    // other flags keep theirs
    expect(r.text).toContain('"--limit[Items per page.]:file:_files"')
    expect(r.text.startsWith('#compdef till\n')).toBe(true)
    expect(r.text.indexOf('_till_profile_names() {')).toBeLessThan(r.text.indexOf('_till_products_list() {'))
    // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's own ${(f)...} expansion, not a template
    expect(r.text).toContain('profiles=(${(f)"$(till profiles list -o tsv --columns name --no-input 2>/dev/null)"})')
  })

  it('amends once; a script without --profile is reported', () => {
    const once = withZshProfiles(zsh, 'till').text
    expect(withZshProfiles(once, 'till')).toEqual({text: once, changed: false})
    expect(withZshProfiles('#compdef till\n', 'till')).toMatchObject({changed: false, problem: expect.stringContaining('--profile')})
  })
})
