// The contract mode as the request pipeline uses it: check a request before its route runs (a refusal
// becomes the service's 422), check the answer after, and record every violation: one line of the
// emulator's log each, and one JSON line each in the file TILL_CONTRACT_LOG names (the test suite gives
// each test file one, and fails the test during which a line appeared). Appends of one short line are
// whole on a local file system, so processes can share a file.
import {appendFileSync, statSync} from 'node:fs'
import type {IncomingHttpHeaders} from 'node:http'
import {resolve} from 'node:path'

import {Contract, type Operation, type Violation} from './contract.js'
import {HttpError, requestValidation} from './errors.js'
import {readOnly} from './store.js'

/** What a contract-mode check needs of an answer (the pipeline's Reply). */
export interface Answer {
  status: number
  body?: unknown
  raw?: {contentType: string}
  stream?: unknown
}

/** Documents already read, by file, modification time and size. */
const loaded = new Map<string, Contract>()

export class ContractMode {
  constructor(
    private readonly contract: Contract,
    private readonly file: string | undefined,
    private readonly log: (line: string) => void,
  ) {}

  static load(file: string, logFile: string | undefined, log: (line: string) => void): ContractMode {
    // A document is read once per process: every emulator of a process (the test suite starts one per test
    // file in each worker) shares it and the validators it compiles on first use, which never change.
    const {mtimeMs, size} = statSync(file)
    const key = `${resolve(file)}:${mtimeMs}:${size}`
    let contract = loaded.get(key)
    if (!contract) loaded.set(key, (contract = Contract.load(file)))
    return new ContractMode(contract, logFile, log)
  }

  /** Checks an API request: its operation, and the service's 422 when the document refuses it. */
  request(method: string, url: URL, headers: IncomingHttpHeaders, body: unknown): {operation?: Operation; refusal?: HttpError} {
    const check = this.contract.checkRequest({method, path: url.pathname, query: url.searchParams, headers, body, hasBody: body !== undefined})
    this.record(check.violations)
    return {operation: check.operation ?? undefined, refusal: check.refusal ? requestValidation(check.refusal) : undefined}
  }

  /**
   * A refused request is answered 422, in the emulator's own words where its route refuses it too (its
   * request schemas give the service's messages for its fields), else in the document's. The route runs
   * with every store read-only, so nothing it would do happens.
   */
  async refuse(refusal: HttpError, route: () => unknown): Promise<never> {
    const own = await readOnly.run(true, async () => {
      try {
        await route()
        return undefined
      } catch (error) {
        return error
      }
    })
    throw own instanceof HttpError && own.status === 422 ? own : refusal
  }

  /** Records where an answer departs from the operation's documented answer for its status. */
  answer(operation: Operation, reply: Answer): void {
    if (reply.stream) return
    const contentType = reply.raw ? reply.raw.contentType : reply.status === 204 || reply.status === 304 ? undefined : 'application/json'
    this.record(this.contract.checkAnswer(operation, {status: reply.status, contentType, body: reply.raw ? undefined : (reply.body ?? null)}))
  }

  private record(violations: Violation[]): void {
    if (violations.length === 0) return
    for (const v of violations) {
      this.log(
        `contract: ${v.side} ${v.method} ${v.path}${v.status ? ` ${v.status}` : ''} at ${v.at}: ${v.message} [${v.operation ?? 'no operation'} ${v.schemaPath}]`,
      )
    }
    if (this.file) appendFileSync(this.file, violations.map((v) => `${JSON.stringify({...v, pid: process.pid, time: new Date().toISOString()})}\n`).join(''))
  }
}
