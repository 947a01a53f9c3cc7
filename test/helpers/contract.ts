// The contract mode for the whole suite (vitest setupFiles): every emulator a test file starts, spawned or
// embedded in a till process, checks each request and answer against the service's published OpenAPI
// document (src/emulator/contract) and appends each violation to this file's log. After each test (and
// after the file's hooks) the new lines fail that test, naming the operation, the place and the schema
// path; every violation of the run is also kept in test/artifacts/contract-violations.jsonl.
//
// A test that sends requests the document refuses on purpose (to check the 422, or that garbage never
// makes a 5xx) calls allowRefusals() (a file of such tests: allowRefusalsInFile()): what its requests
// carry is then not a violation for that test; an answer that departs from the document still is.
import {appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, afterEach, beforeEach} from 'vitest'

import type {Violation} from '../../src/emulator/core/contract.js'
import {ROOT} from './emulator.js'

export const SPEC = join(ROOT, 'contract', '2026-10.openapi.json')

if (!existsSync(SPEC)) throw new Error(`the contract mode needs the service's OpenAPI document at ${SPEC} (contract/: npm run contract -- FILE makes it)`)
process.env.TILL_CONTRACT = SPEC
const log = join(mkdtempSync(join(tmpdir(), 'till-contract-')), 'violations.jsonl')
process.env.TILL_CONTRACT_LOG = log
const ARTIFACTS = join(ROOT, 'test', 'artifacts')
const ALL = join(ARTIFACTS, 'contract-violations.jsonl')

/** A violation as the emulator records it (one JSON line). */
type Recorded = Violation

let offset = 0
let refusalsAllowed = false
let refusalsAllowedInFile = false

/** In a test that sends refused requests on purpose: its requests' departures are not violations. */
export function allowRefusals(): void {
  refusalsAllowed = true
}

/** At the top of a file whose every test is about refused requests (fuzzing, bad input). */
export function allowRefusalsInFile(): void {
  refusalsAllowedInFile = true
}

function take(): Recorded[] {
  if (!existsSync(log)) return []
  const text = readFileSync(log, 'utf8')
  const fresh = text.slice(offset)
  offset = text.length
  return fresh
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Recorded)
}

function check(where: string): void {
  const found = take().filter((v) => !((refusalsAllowed || refusalsAllowedInFile) && v.side === 'request'))
  refusalsAllowed = false
  if (found.length === 0) return
  mkdirSync(ARTIFACTS, {recursive: true})
  appendFileSync(ALL, found.map((v) => `${JSON.stringify({test: where, ...v})}\n`).join(''))
  const lines = found
    .slice(0, 12)
    .map(
      (v) =>
        `- ${v.side} ${v.method} ${v.path}${v.status ? ` -> ${v.status}` : ''} (${v.operation ?? 'no operation'}) at ${v.at}: ${v.message} [${v.schemaPath}]`,
    )
  if (found.length > 12) lines.push(`- and ${found.length - 12} more (test/artifacts/contract-violations.jsonl)`)
  throw new Error(`${found.length} contract violation${found.length === 1 ? '' : 's'} (the service's OpenAPI document):\n${lines.join('\n')}`)
}

beforeEach(() => {
  refusalsAllowed = false
})
let file = ''
afterEach((context) => {
  file = context.task.file?.name ?? file
  check(`${file} > ${context.task.name}`)
})
afterAll(() => check(`${file} > after its tests`))
