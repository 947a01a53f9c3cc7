// node:crypto for the emulator, loaded on first use. It is the largest of the Node modules an emulator
// loads, and a command's own emulator usually starts from a saved store and answers a list,
// which needs none of it: hashes, signatures and random tokens come with writes.
import type * as Crypto from 'node:crypto'

const crypto = (): typeof Crypto => process.getBuiltinModule('node:crypto')

export const createHash = ((...args: Parameters<typeof Crypto.createHash>) => crypto().createHash(...args)) as typeof Crypto.createHash
export const createHmac = ((...args: Parameters<typeof Crypto.createHmac>) => crypto().createHmac(...args)) as typeof Crypto.createHmac
export const randomBytes = ((size: number) => crypto().randomBytes(size)) as (size: number) => Buffer
export const randomUUID = (): string => crypto().randomUUID()
export const timingSafeEqual: typeof Crypto.timingSafeEqual = (a, b) => crypto().timingSafeEqual(a, b)
