// The resource descriptions (src/client/resources/described.ts) are complete: every operation a till
// command sends belongs to exactly one of them (or is named as acting on no resource), each names
// operations of the published document, a topic that has commands, and column sets that exist; and no
// column set is kept for a resource nobody described.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {resourceColumns} from '../../src/areas/columns.js'
import {cliColumns} from '../../src/cli/output/columns.js'
import {OPERATIONS, UNDOCUMENTED_OPERATIONS} from '../../src/client/operations.generated.js'
import {isList, isListed, NOT_RESOURCES, RESOURCES, scopesOf, type ResourceDescription} from '../../src/client/resources/described.js'
import {COMMAND_OPERATIONS, SHARED_OPERATIONS} from '../../src/client/till-scopes.generated.js'
import {ROOT} from '../helpers/emulator.js'

const all: readonly ResourceDescription[] = RESOURCES
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
const commandIds = Object.keys(manifest.commands).map((id) => id.replaceAll(':', ' '))

describe('the resource descriptions', () => {
  it('cover every operation a command sends, each in exactly one description', () => {
    const owners = new Map<string, string[]>()
    for (const r of all) for (const op of [...r.operations, ...(r.newer ?? [])]) owners.set(op, [...(owners.get(op) ?? []), r.name])
    const sent = new Set([...Object.values(COMMAND_OPERATIONS).flat(), ...SHARED_OPERATIONS])
    const orphans = [...sent].filter((op) => !owners.has(op) && !Object.hasOwn(NOT_RESOURCES, op))
    expect(orphans, 'operations sent by a command but in no description (add them to one, or to NOT_RESOURCES with a reason)').toEqual([])
    const shared = [...owners].filter(([, names]) => names.length > 1)
    expect(shared, 'operations in two descriptions').toEqual([])
    for (const op of Object.keys(NOT_RESOURCES)) expect(Object.hasOwn(OPERATIONS, op) || Object.hasOwn(UNDOCUMENTED_OPERATIONS, op), op).toBe(true)
  })

  it('name operations of the published document, a unique name, a noun and a topic that has commands', () => {
    const names = all.map((r) => r.name)
    expect(new Set(names).size).toBe(names.length)
    for (const r of all) {
      expect(r.operations.length, r.name).toBeGreaterThan(0)
      for (const op of r.operations) expect(Object.hasOwn(OPERATIONS, op), `${r.name}: ${op}`).toBe(true)
      for (const op of r.newer ?? []) expect(Object.hasOwn(UNDOCUMENTED_OPERATIONS, op), `${r.name}: ${op}`).toBe(true)
      expect(r.noun, r.name).toMatch(/^[A-Za-z0-9][A-Za-z0-9 ]*$/)
      expect(
        commandIds.some((id) => id === r.topic || id.startsWith(`${r.topic} `)),
        `${r.name}: no command under "till ${r.topic}"`,
      ).toBe(true)
      // the scopes come from the document: each operation of an organization token names at least one
      for (const [op, scopes] of Object.entries(scopesOf(r)))
        if ((OPERATIONS[op as keyof typeof OPERATIONS].auth as readonly string[]).includes('oat')) expect(scopes.length, op).toBeGreaterThan(0)
    }
  })

  it('name the column sets that show them, and every column set shows a described resource', () => {
    const views = new Set(all.flatMap((r) => r.views ?? [r.name]))
    const missing = [...views].filter((v) => !Object.hasOwn(resourceColumns, v))
    expect(missing, 'views named by a description without a column set').toEqual([])
    const undescribed = Object.keys(resourceColumns).filter((k) => !views.has(k) && !Object.hasOwn(cliColumns, k))
    expect(undescribed, 'column sets of no described resource').toEqual([])
  })

  it('a listed resource has its list command and a column set to list it with', () => {
    for (const r of all) {
      if (!isListed(r)) continue
      expect(commandIds, `${r.name}: the 404 hint names "till ${r.topic} list"`).toContain(`${r.topic} list`)
      if (r.operations.some(isList)) expect((r.views ?? [r.name]).length, `${r.name} is listed but has no column set`).toBeGreaterThan(0)
    }
  })
})

describe('the topics of the command line', () => {
  it('each is described, beside its resource or in src/cli/topics.ts', async () => {
    const {topicDescriptions} = await import('../../src/cli/topics.js')
    const described = topicDescriptions()
    // every word sequence that has commands below it: `webhooks`, `webhooks endpoints`, `portal orders invoice`
    const topics = new Set(
      commandIds.flatMap((id) =>
        id
          .split(' ')
          .slice(0, -1)
          .map((_, i, words) => words.slice(0, i + 1).join(' ')),
      ),
    )
    const undescribed = [...topics].filter((t) => described[t] === undefined)
    expect(undescribed, 'topics with no description: add `about` to the resource whose topic it is, or a line to src/cli/topics.ts').toEqual([])
    const empty = Object.keys(described).filter((t) => !topics.has(t))
    expect(empty, 'described topics with no command under them').toEqual([])
  })

  it("are package.json's oclif.topics, as npm run topics writes them", async () => {
    const {packageWithTopics} = (await import(join(ROOT, 'scripts', 'topics.js'))) as {packageWithTopics: () => Promise<string>}
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8'), 'package.json oclif.topics is not current: run npm run topics').toBe(await packageWithTopics())
  })
})
