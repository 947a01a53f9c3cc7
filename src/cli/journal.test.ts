import {execFileSync, spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {Journal, jobHash, mayHaveBeenSent, parseJournal, progressText, type Job} from './journal.js'

const job = (over: Partial<Job> = {}): Job => ({
  command: 'orders invoice generate',
  profile: 'p',
  environment: 'sandbox',
  baseUrl: 'https://sandbox-api.polar.sh/v1',
  args: {id: '-'},
  flags: {wait: false, timeout: 60},
  ids: ['o1', 'o2', 'o3'],
  ...over,
})

describe('what names a job', () => {
  it('the command, its flags, the profile and the ids in order; not how results are shown', () => {
    const base = jobHash(job())
    expect(jobHash(job({flags: {wait: false, timeout: 60, output: 'jsonl', envelope: true, json: true, yes: true, resume: true}}))).toBe(base)
    expect(jobHash(job({flags: {timeout: 60, wait: false}}))).toBe(base)
    expect(jobHash(job({flags: {wait: true, timeout: 60}}))).not.toBe(base)
    expect(jobHash(job({ids: ['o2', 'o1', 'o3']}))).not.toBe(base)
    expect(jobHash(job({profile: 'q'}))).not.toBe(base)
    expect(jobHash(job({command: 'customers delete'}))).not.toBe(base)
  })
})

describe('reading a journal', () => {
  it('keeps the last record of each input and skips a line cut short', () => {
    const text = [
      '{"till_journal":1,"command":"x","ids":4}',
      '{"i":0,"id":"a","sent":true}',
      '{"i":0,"id":"a","status":"ok"}',
      '{"i":1,"id":"b","sent":true}',
      '{"i":2,"id":"c","sent":true}',
      '{"i":2,"id":"c","status":"failed","exit_code":2,"error":"no"}',
      '{"i":3,"id":"d","sent":true}',
      '{"i":3,"id":"d","stat',
    ].join('\n')
    const entries = parseJournal(text)
    expect([...entries]).toEqual([
      [0, {sent: true, status: 'ok', exit_code: undefined}],
      [1, {sent: true}],
      [2, {sent: true, status: 'failed', exit_code: 2}],
      [3, {sent: true}],
    ])
    expect(progressText(entries, 5)).toBe('1 of 5 ids done, 1 failed, 2 of unknown outcome')
  })

  it('an input may have been sent when it was started and then had no outcome, an unknown one, or a failure of the network', () => {
    expect(mayHaveBeenSent(undefined)).toBe(false)
    expect(mayHaveBeenSent({sent: true})).toBe(true)
    expect(mayHaveBeenSent({sent: true, status: 'unknown', exit_code: 7})).toBe(true)
    expect(mayHaveBeenSent({sent: true, status: 'failed', exit_code: 6})).toBe(true)
    expect(mayHaveBeenSent({sent: true, status: 'failed', exit_code: 3})).toBe(false)
    expect(mayHaveBeenSent({sent: true, status: 'ok'})).toBe(false)
  })
})

describe('the journal file', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'till-journal-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  it('records each input as it goes, is found again by the same job, and is removed when finished', () => {
    const first = Journal.claim(dir, job())
    expect(first.earlier).toBeUndefined()
    const journal = Journal.open(first, job())
    const hooks = journal.hooks<object>()
    hooks.started!(0, 'o1')
    hooks.finished!(0, {id: 'o1', ok: true, status: 'ok'})
    hooks.started!(1, 'o2')
    journal.close()
    const lines = readFileSync(journal.file, 'utf8').trim().split('\n')
    expect(JSON.parse(lines[0]!)).toMatchObject({till_journal: 1, command: 'orders invoice generate', ids: 3})
    expect(lines.slice(1)).toEqual(['{"i":0,"id":"o1","sent":true}', '{"i":0,"id":"o1","status":"ok"}', '{"i":1,"id":"o2","sent":true}'])

    const again = Journal.claim(dir, job({flags: {wait: false, timeout: 60, output: 'json'}}))
    expect(again.file).toBe(journal.file)
    const resumed = Journal.open(again, job())
    const h = resumed.hooks<object>()
    expect(resumed.doneBefore).toBe(1)
    expect(h.known!(0, 'o1')).toEqual({id: 'o1', ok: true, status: 'already done', reason: 'done by an earlier run of this job'})
    expect(h.known!(1, 'o2')).toBeUndefined()
    expect(h.earlier!(1)).toBe(true)
    expect(h.earlier!(2)).toBe(false)
    resumed.remove()
    expect(Journal.claim(dir, job()).earlier).toBeUndefined()
  })

  it('a job another live process holds is busy (exit 12); one whose process died is taken over', async () => {
    const {file, lock} = Journal.claim(dir, job())
    lock.release()
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], {stdio: 'ignore'})
    try {
      writeFileSync(`${file}.lock`, String(sleeper.pid))
      expect(() => Journal.claim(dir, job())).toThrow(
        expect.objectContaining({exitCode: 12, message: `another till orders invoice generate is running this job with the same input (pid ${sleeper.pid})`}),
      )
    } finally {
      sleeper.kill('SIGKILL')
      await new Promise((resolve) => sleeper.once('exit', resolve))
    }
    const claimed = Journal.claim(dir, job())
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid))
    claimed.lock.release()
  })

  it('a FIFO or a link to /dev/zero at the journal is a clear error at once, its lock let go; one at the lock is taken over', () => {
    const {file, lock} = Journal.claim(dir, job())
    lock.release()
    for (const [plant, what] of [
      [() => execFileSync('mkfifo', [file]), 'a FIFO (named pipe)'],
      [() => symlinkSync('/dev/zero', file), 'a device'],
    ] as const) {
      rmSync(file, {force: true})
      plant()
      expect(() => Journal.claim(dir, job())).toThrow(
        expect.objectContaining({exitCode: 1, message: `cannot read the journal ${file}: it is ${what}, not a file`}),
      )
    }
    rmSync(file, {force: true})
    execFileSync('mkfifo', [`${file}.lock`])
    const claimed = Journal.claim(dir, job())
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid))
    claimed.lock.release()
  })
})
