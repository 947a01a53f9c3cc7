// The webhook event types till and the emulator know are generated from the service's OpenAPI document
// (scripts/webhook-events.js), never kept by hand: the file is current, and it is the document's enum with
// the values the changes since add (contract/changes).
import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'
import {API_VERSIONS} from '../../src/client/version.js'
import {WEBHOOK_EVENTS, WEBHOOK_EVENTS_BY_VERSION} from '../../src/client/webhook-events.js'

const DOCUMENT = join(ROOT, 'contract', '2026-10.openapi.json')

describe('webhook event types', () => {
  it('src/client/webhook-events.ts is what the generator makes of the document now', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'webhook-events.js'), '--check', DOCUMENT], {encoding: 'utf8'})
    expect(r.status, r.stderr).toBe(0)
  })

  it("every version's list is the document's WebhookEventType enum, in its order, then subscription.migrated in every version", () => {
    const documented = JSON.parse(readFileSync(DOCUMENT, 'utf8')).components.schemas.WebhookEventType.enum as string[]
    expect(documented).not.toContain('subscription.migrated')
    expect([...WEBHOOK_EVENTS]).toEqual([...documented, 'subscription.migrated'])
    for (const version of API_VERSIONS) expect([...WEBHOOK_EVENTS_BY_VERSION[version]]).toEqual([...documented, 'subscription.migrated'])
  })
})
