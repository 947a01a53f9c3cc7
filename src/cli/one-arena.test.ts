import {describe, expect, it} from 'vitest'

import {oneArenaRestart, type ProcessFacts} from './one-arena.js'

const facts = (over: Partial<ProcessFacts> = {}): ProcessFacts => ({
  platform: 'linux',
  canExec: true,
  glibc: () => true,
  execPath: '/opt/node/bin/node',
  execArgv: ['--require', '/tmp/hook.cjs'],
  script: '/app/bin/run.js',
  ...over,
})

describe('oneArenaRestart', () => {
  it('starts the same command again, with the same Node flags, under one malloc arena', () => {
    const restart = oneArenaRestart(['orders', 'list', '--all'], {PATH: '/bin', TILL_PROFILE: 'work'}, facts())
    expect(restart).toEqual({
      file: '/opt/node/bin/node',
      args: ['/opt/node/bin/node', '--require', '/tmp/hook.cjs', '/app/bin/run.js', 'orders', 'list', '--all'],
      env: {PATH: '/bin', TILL_PROFILE: 'work', MALLOC_ARENA_MAX: '1', TILL_ONE_ARENA: '1'},
    })
  })

  it('runs on as it is where the arena setting is given already, or in the command started again', () => {
    expect(oneArenaRestart(['orders', 'list', '--all'], {MALLOC_ARENA_MAX: '4'}, facts())).toBeUndefined()
    expect(oneArenaRestart(['orders', 'list', '--all'], {TILL_ONE_ARENA: '1'}, facts())).toBeUndefined()
  })

  it('runs on as it is off Linux, without glibc or without process.execve, and asks for glibc only on Linux', () => {
    let asked = 0
    const glibc = () => {
      asked++
      return true
    }
    expect(oneArenaRestart(['catalog', 'plan', 'c.yaml'], {}, facts({platform: 'darwin', glibc}))).toBeUndefined()
    expect(oneArenaRestart(['catalog', 'plan', 'c.yaml'], {}, facts({canExec: false, glibc}))).toBeUndefined()
    expect(asked).toBe(0)
    expect(oneArenaRestart(['catalog', 'plan', 'c.yaml'], {}, facts({glibc: () => false}))).toBeUndefined()
  })
})
