// oclif conventions: "did you mean" for a mistyped command, with spaces between the words,
// never echoing arguments (they may be tokens); shell completion scripts; `--version` answered without
// oclif but as oclif would.
import {execFileSync} from 'node:child_process'
import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {API_VERSION} from '../../src/client/version.js'
import {ROOT, startEmulator, type Emulator} from '../helpers/emulator.js'
import {envVars, KEY, runAnswering, runCli, sandbox, TILL, type Sandbox} from '../helpers/cli.js'
import {fish, zsh} from '../helpers/tools.js'
import {runInProcess} from '../helpers/in-process.js'

const ZSH = zsh()
const FISH = fish()

const TOKEN = 'polar_oat_conventionsTestToken0123456789abcdef'

describe('a mistyped command', () => {
  let box: Sandbox
  beforeAll(() => {
    box = sandbox()
  })
  afterAll(() => box.cleanup())

  it.each([
    [['prodcts', 'list'], /^Error: "prodcts list" is not a till command; did you mean "till products list"\?\nHint: see the commands with: till --help\n$/],
    [
      ['products', 'lst', '--limit', '3'],
      /^Error: "products lst" is not a till command; did you mean "till products list"\?\nHint: see the commands with: till products --help\n$/,
    ],
    [['customers', 'delet'], /^Error: "customers delet" is not a till command; did you mean "till customers delete"\?\n/],
    [['zzzz'], /^Error: "zzzz" is not a till command\nHint: see the commands with: till --help\n$/],
  ])('till %j: did you mean, with spaces, exit 2', async (args, pattern) => {
    const r = await runInProcess(args, {env: box.env()})
    expect(r.code, r.stderr).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(pattern)
    expect(r.stderr).not.toMatch(/\w:\w/) // no `products:list`
  })

  it('never shows the arguments typed after it, which may be a token', async () => {
    for (const args of [
      ['auth', 'logn', TOKEN],
      ['products', 'list', TOKEN],
    ]) {
      const r = await runInProcess(args, {env: box.env()})
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).not.toContain('conventionsTestToken')
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
    const extra = await runInProcess(['products', 'list', TOKEN], {env: box.env()})
    expect(extra.stderr).toBe('Error: unexpected argument to "till products list" (not shown)\nHint: see: till products list --help\n')
  })

  describe('on a terminal', () => {
    let emulator: Emulator
    beforeAll(async () => {
      emulator = await startEmulator()
    })
    afterAll(async () => {
      await emulator?.stop()
    })

    it('offers the one near command, and runs it with the same arguments when accepted', async () => {
      const env = box.env(envVars(emulator.production))
      const r = await runAnswering(`${TILL} prodcts list --limit 2 -o jsonl`, env, [{when: /Did you mean till products list\?/, send: KEY.enter}])
      expect(r.unanswered).toBe(0)
      expect(r.code, r.stdout).toBe(0)
      expect(r.stdout).toContain('"prodcts list" is not a till command.')
      expect(r.stdout.split('\n').filter((l) => l.startsWith('{"id":'))).toHaveLength(2)
    })

    it('declined, it is the usual error (exit 2); with --no-input it does not ask', async () => {
      const env = box.env(envVars(emulator.production))
      const no = await runAnswering(`${TILL} prodcts list`, env, [{when: /Did you mean till products list\?/, send: 'n\r'}])
      expect(no.code, no.stdout).toBe(2)
      expect(no.stdout).toMatch(/Error: "prodcts list" is not a till command; did you mean "till products list"\?/)
      const quiet = await runAnswering(`${TILL} prodcts list --no-input`, env, [])
      expect(quiet.code, quiet.stdout).toBe(2)
      expect(quiet.stdout).not.toContain('Did you mean till')
    })
  })
})

/** A sandbox with `till` on its PATH, as installed, and two profiles whose names completion should offer. */
async function completionBox(): Promise<Sandbox> {
  const box = sandbox()
  mkdirSync(join(box.root, 'bin'))
  writeFileSync(join(box.root, 'bin', 'till'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'run.js'))} "$@"\n`)
  chmodSync(join(box.root, 'bin', 'till'), 0o755)
  for (const name of ['sandbox-eu', 'prod-main']) {
    const add = await runInProcess(['profiles', 'add', name, '--environment', 'sandbox', '--token-stdin', '--no-verify'], {
      env: box.env(),
      input: 'polar_oat_shellCompletionProfileToken0123456789\n',
    })
    expect(add.code, add.stderr).toBe(0)
  }
  return box
}

describe('shell completion (@oclif/plugin-autocomplete)', () => {
  let box: Sandbox
  let env: NodeJS.ProcessEnv
  const functions = (...path: string[]) => join(box.root, 'cache', 'till', 'autocomplete', 'functions', ...path)
  beforeAll(async () => {
    box = await completionBox()
    // oclif's cache folder, where the completion cache goes, from XDG_CACHE_HOME (not the suite's TILL_CACHE_DIR)
    env = box.env({XDG_CACHE_HOME: join(box.root, 'cache'), TILL_CACHE_DIR: undefined, PATH: `${join(box.root, 'bin')}:${process.env.PATH}`})
  })
  afterAll(() => box.cleanup())

  it('the plugin is loaded where it is needed: the root help lists its topic, and its command runs', async () => {
    const help = await runInProcess(['--help'], {env})
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^ {2}autocomplete +\S/m)
    const instructions = await runInProcess(['autocomplete', 'bash'], {env})
    expect(instructions.code, instructions.stderr).toBe(0)
    expect(instructions.stdout).toContain('bash')
  })

  it.each(['bash', 'zsh'])('till autocomplete script %s prints a setup line for the shell', async (shell) => {
    const r = await runInProcess(['autocomplete', 'script', shell], {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`TILL_AC_${shell.toUpperCase()}_SETUP_PATH=.*${shell}_setup`))
  })

  it('the completion cache lists every command and its flags (bash completes them with spaces)', async () => {
    const r = await runInProcess(['autocomplete', 'bash'], {env})
    expect(r.code, r.stderr).toBe(0)
    const script = readFileSync(functions('bash', 'till.bash'), 'utf8')
    expect(script).toMatch(/^products list$/m)
    expect(script).toMatch(/'customers delete'[^\n]*\) echo '[^']*--yes/)
    expect(script).toMatch(/'products list'[^\n]*\) echo '[^']*--limit/)
  })

  it('bash completes past global flags, flag values (fixed options, profile names; `--flag value` and `--flag=value`), commands word by word', async () => {
    const r = await runInProcess(['autocomplete', 'bash'], {env})
    expect(r.code, r.stderr).toBe(0)
    // the completion function called by a real bash as the shell calls it on TAB: the line up to the cursor
    // (COMP_LINE, COMP_POINT), and the words as bash splits them (at spaces and at =)
    const complete = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$1"; COMP_LINE="$2"; COMP_POINT=\${#COMP_LINE}; COMP_WORDS=($(sed 's/=/ = /g' <<< "$2")); [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _till_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'bash',
          functions('bash', 'till.bash'),
          line,
        ],
        {env},
      )
        .toString()
        .split('\n')
        .filter(Boolean)
    // global flags (and their values) before the command
    expect(complete('till -p sandbox pro')).toEqual(['products', 'profiles'])
    expect(complete('till --profile=sandbox-eu --debug orders li')).toEqual(['list'])
    expect(complete('till --max-wait 30 portal orders ')).toEqual(expect.arrayContaining(['list', 'get', 'invoice']))
    // flag values: fixed options, after the flag or its =, wherever the flag comes
    expect(complete('till orders list --status ').sort()).toEqual(['draft', 'paid', 'partially_refunded', 'pending', 'refunded', 'void'])
    expect(complete('till orders list --limit 5 --status pa')).toEqual(['paid', 'partially_refunded'])
    expect(complete('till orders list --status=re')).toEqual(['refunded'])
    expect(complete('till -p sandbox-eu products list -o ')).toEqual(['table', 'json', 'jsonl', 'csv', 'tsv'])
    expect(complete('till orders list --limit ')).toEqual([])
    // profile names, asked of till, before and after the command
    expect(complete('till -p ').sort()).toEqual(['local', 'prod-main', 'sandbox-eu'])
    expect(complete('till products list -p ').sort()).toEqual(['local', 'prod-main', 'sandbox-eu'])
    expect(complete('till customers get --profile sand')).toEqual(['sandbox-eu'])
    expect(complete('till orders list --profile=pro')).toEqual(['prod-main'])
    // commands and flags as before
    expect(complete('till prod')).toEqual(['products'])
    expect(complete('till products list --li')).toEqual(['--limit'])
    expect(complete('till --')).toEqual(expect.arrayContaining(['--profile', '--debug', '--max-wait', '--no-input']))
    // the whole script is replaced by till's, once, however often the cache is rebuilt
    await runInProcess(['autocomplete', 'bash', '--refresh-cache'], {env})
    expect(readFileSync(functions('bash', 'till.bash'), 'utf8').match(/till: profile names/g)).toHaveLength(1)
  })

  it('on a terminal, bash completes `till -p NAME pro<TAB>` and `--status <TAB>` (a real interactive bash)', async () => {
    await runInProcess(['autocomplete', 'bash'], {env})
    const script = functions('bash', 'till.bash')
    const rc = join(box.root, 'bashrc')
    writeFileSync(rc, `PS1='READY> '\nsource ${script}\nbind 'set show-all-if-ambiguous on'\n`)
    const r = await runAnswering(`bash --rcfile ${rc} --noprofile -i`, env, [
      {when: /READY> /, send: 'till -p sandbox-eu pro\t'},
      {when: /products\s+profiles[\s\S]*READY> till -p sandbox-eu pro/, send: '\x15till orders list --status partially_r\t'},
      {when: /--status partially_refunded /, send: '\x15exit\r'},
    ])
    expect(r.unanswered, r.stdout).toBe(0)
    expect(r.stdout).toMatch(/products\s+profiles/)
    expect(r.stdout).toContain('till orders list --status partially_refunded ')
  })

  it.skipIf(ZSH.missing)(
    `zsh completes profile names for --profile / -p through a function that asks till; the script parses in a real zsh${ZSH.skipped}`,
    async () => {
      const r = await runInProcess(['autocomplete', 'zsh'], {env})
      expect(r.code, r.stderr).toBe(0)
      const file = functions('zsh', '_till')
      const script = readFileSync(file, 'utf8')
      expect(script).toMatch(/\{-p,--profile\}"\[[^\]]*\]:profile:_till_profile_names"/)
      expect(script).not.toMatch(/--profile\}?"?\[[^\]]*\]:file:_files/)
      execFileSync('zsh', ['-n', file], {env})
      // the function run by a real zsh, with _describe (the completion system's) standing in to print what it is given
      const offered = execFileSync(
        'zsh',
        ['-c', `_describe() { print -l -- "\${(@P)\${@[-1]}}" }; eval "$(sed -n '/^_till_profile_names() {/,/^}/p' "$1")"; _till_profile_names`, 'zsh', file],
        {env},
      )
        .toString()
        .split('\n')
        .filter(Boolean)
      expect(offered.sort()).toEqual(['local', 'prod-main', 'sandbox-eu'])
    },
  )
})

describe.skipIf(FISH.missing)(`fish completion (till autocomplete fish), loaded into a real fish${FISH.skipped}`, () => {
  let box: Sandbox
  let script: string
  /** What fish offers for the command line `line` (`complete -C`), one `word<TAB>description` a line. */
  const complete = (line: string): string[] =>
    execFileSync('fish', ['--no-config', '-c', `source ${script}; complete -C ${JSON.stringify(line)}`], {
      env: box.env({PATH: `${join(box.root, 'bin')}:${process.env.PATH}`}),
    })
      .toString()
      .split('\n')
      .filter(Boolean)
  const words = (line: string) => complete(line).map((l) => l.split('\t')[0])

  beforeAll(async () => {
    box = sandbox()
    // `till` on the PATH, as installed
    mkdirSync(join(box.root, 'bin'))
    writeFileSync(join(box.root, 'bin', 'till'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'run.js'))} "$@"\n`)
    chmodSync(join(box.root, 'bin', 'till'), 0o755)
    const r = await runInProcess(['autocomplete', 'fish'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    script = join(box.root, 'till.fish')
    writeFileSync(script, r.stdout)
    for (const name of ['sandbox-eu', 'prod-main']) {
      const add = await runInProcess(['profiles', 'add', name, '--environment', 'sandbox', '--token-stdin', '--no-verify'], {
        env: box.env(),
        input: 'polar_oat_fishCompletionProfileToken0123456789\n',
      })
      expect(add.code, add.stderr).toBe(0)
    }
  })
  afterAll(() => box.cleanup())

  it('completes topics, then the commands of a topic word by word, with their summaries', () => {
    expect(words('till prod')).toEqual(['products'])
    expect(complete('till products ')).toContainEqual(expect.stringMatching(/^list\t./))
    expect(words('till portal orders ')).toContain('invoice')
  })

  it("completes a command's flags and their fixed values", () => {
    expect(words('till products list --li')).toEqual(['--limit'])
    expect(words('till products list -o ')).toEqual(expect.arrayContaining(['table', 'json', 'jsonl', 'csv', 'tsv']))
  })

  it('completes profile names after --profile and -p, asked of till', () => {
    expect(words('till products list --profile ')).toEqual(expect.arrayContaining(['sandbox-eu', 'prod-main']))
    expect(words('till customers get -p ')).toEqual(expect.arrayContaining(['sandbox-eu', 'prod-main']))
  })
})

describe('till --version', () => {
  it('answers as oclif does, to -v and -V too: name/version platform-arch node-version, plus the pinned API version', async () => {
    const box = sandbox()
    const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
    // bin/run.js answers it before oclif loads: a process
    // oclif reads a first argument --version as the question, whatever follows
    for (const args of [['--version'], ['--version', 'products', 'list'], ['-v'], ['-V']]) {
      const r = await runCli(args, {env: box.env()})
      expect(r.code).toBe(0)
      expect(r.stdout).toBe(`till/${version} ${process.platform}-${process.arch} node-${process.version} polar-api/${API_VERSION}\n`)
      expect(r.stderr).toBe('')
    }
    box.cleanup()
  })
})
