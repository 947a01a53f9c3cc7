// Two emulators on one data folder: every write either one acknowledged is in
// the store both serve, and a temp copy left by a process killed mid-save is removed at the next start.
import {existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, type Emulator} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

const SMALL = {orders: 10, customers: 10, products: 3}
let dataDir: string
let first: Emulator
let second: Emulator
const STALE_PID = 2 ** 22 + 7 // above the default pid_max: no live process has it

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'till-shared-'))
  first = await startEmulator({...SMALL, dataDir})
  // What `kill -9` during a save leaves behind: a temp copy named after the dead process.
  writeFileSync(join(dataDir, `production.json.${STALE_PID}.tmp`), '{"partial": ')
  writeFileSync(join(dataDir, `production.json.rev.${STALE_PID}.tmp`), 'abc')
  second = await startEmulator({...SMALL, dataDir})
}, scaled(60_000))

afterAll(async () => {
  await second?.stop()
  await first?.stop()
  rmSync(dataDir, {recursive: true, force: true})
})

describe('two emulators on one data folder', () => {
  it('a temp copy left by a killed process is removed when an emulator opens the folder', () => {
    expect(readdirSync(dataDir).filter((n) => n.endsWith('.tmp'))).toEqual([])
    expect(existsSync(join(dataDir, 'production.json'))).toBe(true)
  })

  it(
    'concurrent writers through both: every acknowledged write is present in each',
    async () => {
      expect(second.production.token).toBe(first.production.token)
      const created: string[] = []
      const writer = async (emulator: Emulator, name: string, count: number) => {
        for (let i = 0; i < count; i++) {
          const r = await api(emulator.production, 'POST', '/customers/', {body: {email: `${name}-${i}@shared.example.com`}})
          expect(r.status).toBe(201)
          created.push(r.body.id)
        }
      }
      await Promise.all([writer(first, 'a', 60), writer(second, 'b', 60), writer(first, 'c', 60), writer(second, 'd', 60)])
      expect(created).toHaveLength(240)
      for (const emulator of [first, second]) {
        const ids = new Set((await listAll(emulator.production, '/customers/', 'limit=100')).map((c: {id: string}) => c.id))
        expect(created.filter((id) => !ids.has(id))).toEqual([])
      }
    },
    scaled(120_000),
  )
})
