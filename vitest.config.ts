import {defineConfig} from 'vitest/config'

import {measureFactor} from './test/helpers/machine-factor.js'

// Time limits scale with how slow the machine is today (test/helpers/machine.ts): measured here once, before
// the workers start, and handed to them (and to every process a test starts) in the environment
process.env.TILL_TEST_FACTOR ||= String(measureFactor())
const factor = Number(process.env.TILL_TEST_FACTOR)
if (factor > 1.5) process.stderr.write(`the machine is ${factor}x slower than a quiet one: time limits are ${factor}x longer\n`)

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // the contract mode: every emulator of the suite checks requests and answers against the service's
    // OpenAPI document, and a violation fails the test during which it happened
    setupFiles: ['test/helpers/contract.ts'],
    testTimeout: 30_000 * factor,
    hookTimeout: 30_000 * factor,
    pool: 'forks',
    // A worker runs file after file without starting afresh: till's bundle (for in-process runs), vitest
    // and the helpers load once per worker, not once per file (half the suite's CPU time). The setup file
    // is still evaluated for each file, so the contract mode's per-file state starts clean; each file
    // starts and stops its own emulator, and in-process runs put back what they change.
    isolate: false,
    // A test's time is spent partly on CPU (till, the emulator, the contract checks) and mostly waiting
    // (rate-limit windows, payment delays, terminals, kills and resumes): six files at once on a 2-core
    // machine keep both cores busy through the waits (measured: vitest 107-116 s with six, 132 s with four).
    maxWorkers: 6,
    // A worker allocates a lot of short-lived objects (answers, contract checks, in-process runs): a larger
    // young generation than Node's 16 MB means far fewer scavenges (measured: 5% less CPU for the suite).
    execArgv: ['--max-semi-space-size=64'],
  },
})
