// A clone is the whole project: no tracked file reads or names a folder beside the clone (the published
// document lives in contract/, derived by scripts/contract.js), and the derived document keeps the
// service's facts without its prose.
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {derive, text} from '../scripts/contract.js'
import {ROOT} from './helpers/emulator.js'

const CONTRACT = join(ROOT, 'contract', '2026-10.openapi.json')

/** Ways a file could name the folder beside the clone (written so that this file names none of them). */
const DOTS = '.'.repeat(2)
const NAME = ['sha', 'red'].join('')
const OUTSIDE = [`${DOTS}/${NAME}`, `'${DOTS}', '${NAME}'`, `"${DOTS}", "${NAME}"`]

describe('a clone with nothing beside it', () => {
  it('has no tracked file that reads or names a folder beside the clone', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], {cwd: ROOT, encoding: 'utf8'}).split('\0').filter(Boolean)
    expect(tracked.length).toBeGreaterThan(100)
    const naming = tracked.filter((file) => {
      let body: string
      try {
        body = readFileSync(join(ROOT, file), 'utf8')
      } catch {
        return false // a file deleted in the work tree but not yet from the index
      }
      return OUTSIDE.some((needle) => body.includes(needle))
    })
    expect(naming).toEqual([])
  })

  it('carries the contract: every operation, schema and security scheme, and no prose', () => {
    const document = JSON.parse(readFileSync(CONTRACT, 'utf8'))
    const operations = Object.values(document.paths as Record<string, object>).flatMap((item) => Object.keys(item))
    expect(operations.length).toBeGreaterThanOrEqual(186)
    expect(Object.keys(document.components.schemas).length).toBeGreaterThanOrEqual(1000)
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['customer_session', 'member_session', 'oat', 'oidc', 'pat'])
    expect(Object.keys(document.webhooks).length).toBeGreaterThan(30)
    const raw = readFileSync(CONTRACT, 'utf8')
    // prose keys are gone where they are keywords; a property of that name (a product's description) stays
    expect(raw).not.toMatch(/"(description|summary)": "/)
    expect(raw).not.toMatch(/"(example|examples|x-codeSamples)":/)
    expect(document.components.schemas.Product.properties.description).toBeDefined()
    // deriving the derived file again changes nothing: the script keeps facts only
    expect(text(derive(document))).toBe(raw)
  })

  it('drops prose and keeps facts (scopes, statuses, names that look like keywords)', () => {
    const published = {
      info: {title: 'T', version: '2026-10', description: 'words'},
      paths: {
        '/v1/x': {
          get: {
            summary: 's',
            description: 'd',
            operationId: 'x:get',
            parameters: [{name: 'description', in: 'query', description: 'p', schema: {type: 'string', examples: ['a']}}],
            responses: {
              '204': {description: 'gone'},
              '404': {description: 'no', content: {'application/json': {example: {}, schema: {$ref: '#/components/schemas/E'}}}},
            },
          },
        },
      },
      components: {
        schemas: {E: {type: 'object', description: 'an error', properties: {summary: {type: 'string', description: 'a field named summary'}}}},
        securitySchemes: {o: {type: 'oauth2', description: 'd', flows: {authorizationCode: {scopes: {'x:read': 'Read x'}}}}},
      },
    }
    expect(derive(published)).toEqual({
      info: {title: 'T', version: '2026-10'},
      paths: {
        '/v1/x': {
          get: {
            operationId: 'x:get',
            parameters: [{name: 'description', in: 'query', schema: {type: 'string'}}],
            responses: {'204': {}, '404': {content: {'application/json': {schema: {$ref: '#/components/schemas/E'}}}}},
          },
        },
      },
      components: {
        schemas: {E: {type: 'object', properties: {summary: {type: 'string'}}}},
        securitySchemes: {o: {type: 'oauth2', flows: {authorizationCode: {scopes: {'x:read': ''}}}}},
      },
    })
  })

  it('keeps each fact newer than the document with its source', () => {
    const newer = JSON.parse(readFileSync(join(ROOT, 'contract', 'newer.json'), 'utf8'))
    const entries = [...newer.fields, ...newer.operations, ...newer.parameters, ...Object.values(newer.versions as Record<string, {source: string}>)]
    // the service's changes since the snapshot are files of contract/changes/ (contract-changes.test.ts)
    expect(entries.length).toBeGreaterThan(4)
    for (const entry of entries) expect(entry.source, JSON.stringify(entry).slice(0, 80)).toMatch(/\w{3,}/)
  })
})

describe('an install from the lockfile', () => {
  it("decides every dependency's install script in package.json's allowScripts, so npm ci warns of none", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {packages: Record<string, {hasInstallScript?: boolean}>}
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {allowScripts?: Record<string, boolean>}
    const scripted = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    expect(scripted.length).toBeGreaterThan(0)
    for (const name of scripted) expect(typeof pkg.allowScripts?.[name], `${name} in allowScripts`).toBe('boolean')
  })
})
