import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // the contract mode: every emulator of the suite checks requests and answers against the service's
    // OpenAPI document, and a violation fails the test during which it happened
    setupFiles: ['test/helpers/contract.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of a test's time is spent waiting on the processes it spawns (till, the emulator) and on
    // their network, not on this process's CPU: run more files at once than vitest's default of
    // cores - 1 (a single worker on a 2-core machine).
    maxWorkers: 3,
  },
})
