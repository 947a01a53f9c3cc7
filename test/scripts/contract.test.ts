// npm run contract: rewriting a kept document prints what changed from it (operations, parameters,
// schemas, enum values) and records the service's commit and date it was derived from; shown with two
// small documents in a folder of the test's (--out), never contract/ itself.
import {execFile} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {promisify} from 'node:util'

import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {changes, summary} from '../../scripts/contract-changes.js'
import {ROOT} from '../helpers/emulator.js'

const run = promisify(execFile)
const COMMIT = 'c6c3645e639ee8eeaa05aa0835cf8e39e330382f'

const ref = (name: string) => ({$ref: `#/components/schemas/${name}`})
const answer = (name: string) => ({content: {'application/json': {schema: ref(name)}}})

/** A document of two operations and three schemas, as the service publishes one (prose included). */
const earlier = () => ({
  openapi: '3.1.0',
  info: {title: 'Polar API', version: '2099-01', description: 'Read the docs'},
  paths: {
    '/v1/license-keys/': {
      get: {
        operationId: 'license_keys:list',
        summary: 'List License Keys',
        parameters: [{name: 'page', in: 'query', schema: {type: 'integer'}}],
        responses: {'200': answer('LicenseKeyRead')},
      },
    },
    '/v1/webhooks/endpoints': {
      post: {operationId: 'webhooks:create_webhook_endpoint', requestBody: answer('WebhookEndpointCreate'), responses: {'201': answer('LicenseKeyRead')}},
    },
  },
  components: {
    schemas: {
      LicenseKeyRead: {type: 'object', properties: {id: {type: 'string'}}, required: ['id'], description: 'A key.'},
      WebhookEventType: {type: 'string', enum: ['order.paid', 'subscription.updated']},
      WebhookEndpointCreate: {type: 'object', properties: {events: {type: 'array', items: ref('WebhookEventType')}}},
      Gone: {type: 'object'},
    },
  },
})

/** The same, a little later: an operation, a parameter, a schema, properties and an enum value added or gone. */
const later = () => {
  type Loose = {paths: Record<string, {get?: object}>; components: {schemas: Record<string, unknown>}}
  const d = earlier() as unknown as Loose
  d.paths['/v1/license-keys/'] = {
    get: {...d.paths['/v1/license-keys/']!.get, parameters: [{name: 'limit', in: 'query', schema: {type: 'integer'}}]},
  }
  d.paths['/v1/cli/events'] = {get: {operationId: 'cli:events', responses: {'200': answer('LicenseKeyRead')}}}
  d.components.schemas.LicenseKeyRead = {
    type: 'object',
    properties: {id: {type: 'string'}, member_id: {type: 'string'}, member: ref('LicenseKeyMember')},
    required: ['id', 'member_id', 'member'],
  }
  d.components.schemas.LicenseKeyMember = {type: 'object', properties: {id: {type: 'string'}}}
  d.components.schemas.WebhookEventType = {type: 'string', enum: ['order.paid', 'subscription.updated', 'subscription.migrated']}
  delete d.components.schemas.Gone
  return d
}

describe('npm run contract', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-contract-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  const contract = async (doc: unknown, ...flags: string[]) => {
    const file = join(dir, 'source.json')
    writeFileSync(file, JSON.stringify(doc))
    return run(process.execPath, [join(ROOT, 'scripts', 'contract.js'), file, '--out', dir, ...flags], {cwd: ROOT})
  }

  it('prints what changed from the kept document: operations, parameters, schemas and enum values', async () => {
    const first = await contract(earlier(), '--commit', COMMIT, '--date', '2026-08-22')
    expect(first.stdout).toContain('a new document:\noperations: 2 added, 0 removed, 0 changed\n')
    const second = await contract(later(), '--commit', COMMIT, '--date', '2026-08-22')
    expect(second.stdout.split('\n').slice(1)).toEqual([
      'changed from the kept document:',
      'operations: 1 added, 0 removed, 0 changed',
      '  + GET /v1/cli/events (cli:events)',
      'parameters: 1 added, 1 removed, 0 changed',
      '  + GET /v1/license-keys/ query limit',
      '  - GET /v1/license-keys/ query page',
      'schemas: 1 added, 1 removed, 2 changed',
      '  + LicenseKeyMember',
      '  - Gone',
      '  ~ LicenseKeyRead: properties member_id, member added; required',
      '  ~ WebhookEventType: enum values',
      'enum values: 1 added, 0 removed, 0 changed',
      '  + WebhookEventType: subscription.migrated',
      '',
    ])
    // the file is the new document, without its prose
    const kept = JSON.parse(readFileSync(join(dir, '2099-01.openapi.json'), 'utf8'))
    expect(kept.components.schemas.LicenseKeyRead).not.toHaveProperty('description')
    expect(kept.paths['/v1/cli/events'].get.operationId).toBe('cli:events')
    // the same document again: nothing changed
    expect((await contract(later())).stdout).toContain('changed from the kept document:\nno change from the kept document\n')
  })

  it('records the commit and date of the snapshot the document came from, and says when they are not given', async () => {
    const given = await contract(earlier(), '--commit', COMMIT, '--date', '2026-08-22')
    expect(given.stderr).toBe('')
    expect(JSON.parse(readFileSync(join(dir, 'snapshots.json'), 'utf8'))).toEqual({
      '2099-01': {repository: 'polarsource/polar', path: 'docs/openapi/2099-01.openapi.json', commit: COMMIT, date: '2026-08-22'},
    })
    const unknown = await contract(earlier())
    expect(unknown.stderr).toContain('snapshots.json has no commit or date for 2099-01: give them with --commit SHA --date YYYY-MM-DD')
    const refused = await contract(earlier(), '--date', 'yesterday').catch((e: {code: number; stderr: string}) => e)
    expect(refused).toMatchObject({code: 1, stderr: 'npm run contract: --date must be YYYY-MM-DD, not "yesterday"\n'})
  })

  it("the repository's document records its snapshot, and deriving it again changes nothing", async () => {
    const snapshots = JSON.parse(readFileSync(join(ROOT, 'contract', 'snapshots.json'), 'utf8'))
    expect(snapshots['2026-10']).toEqual({repository: 'polarsource/polar', path: 'docs/openapi/2026-10.openapi.json', commit: COMMIT, date: '2026-08-22'})
    const kept = JSON.parse(readFileSync(join(ROOT, 'contract', '2026-10.openapi.json'), 'utf8'))
    expect(summary(changes(kept, kept))).toEqual(['no change from the kept document'])
  })
})
