// A hidden flag (a test hook, an old name kept for scripts) is in no help and no page of the docs, so no
// message may send anyone to it: "check the network and --api-base" named one that `till migrate stripe
// --help` does not show. Every flag hidden wherever it is declared (read from the manifest the build
// writes) is looked for in the text of till's messages: the string literals of src, outside the emulator.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'

/** Where a hidden flag may be named: about the value its user gave, never as advice. */
const ALLOWED: Record<string, string[]> = {
  // "--now "x" is neither unix seconds nor a date": said only to who passed --now
  now: ['src/areas/webhooks/verify.ts'],
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'emulator' ? [] : sources(path)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : []
  })
}

/** The text of a file's string and template literals (comments left out). */
function literals(text: string): string {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  return [...code.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]).join('\n')
}

describe('hidden flags', () => {
  it('no message of till names a flag that help hides', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, {flags?: Record<string, {hidden?: boolean}>}>
    }
    const shown = new Set<string>()
    const hidden = new Map<string, string[]>()
    for (const [id, command] of Object.entries(manifest.commands)) {
      for (const [name, flag] of Object.entries(command.flags ?? {})) {
        if (!flag.hidden) shown.add(name)
        else hidden.set(name, [...(hidden.get(name) ?? []), `src/commands/${id.replaceAll(':', '/')}.ts`])
      }
    }
    // a name another command shows (`--billing-name` of orders) may be named
    for (const name of shown) hidden.delete(name)
    expect([...hidden.keys()]).toContain('api-base')
    const found: string[] = []
    for (const path of sources(join(ROOT, 'src'))) {
      const file = relative(ROOT, path)
      const text = literals(readFileSync(path, 'utf8'))
      for (const [name, declaredIn] of hidden) {
        if (declaredIn.includes(file) || ALLOWED[name]?.includes(file)) continue
        if (new RegExp(`--${name}(?![\\w-])`).test(text)) found.push(`${file}: --${name}`)
      }
    }
    expect(found).toEqual([])
  })
})
