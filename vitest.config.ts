import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of a test's time is spent waiting on the processes it spawns (till, the emulator) and on
    // their network, not on this process's CPU: run more files at once than vitest's default of
    // cores - 1 (a single worker on a 2-core machine).
    maxWorkers: 3,
  },
})
