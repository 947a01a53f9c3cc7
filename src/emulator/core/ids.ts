// Identifiers and secrets in the real service's formats (server/polar/kit/crypto.py).
import {randomBytes, randomUUID} from './crypto.js'

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export type Random = () => number

/** A small, fast deterministic generator (mulberry32) for seed data. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const cryptoRandom: Random = () => randomBytes(4).readUInt32BE(0) / 4294967296

/** Where `uuid()` draws from inside `withIdSource` (the clock's walk); undefined: the system's randomness. */
let idSource: Random | undefined

/** Runs `fn` with every `uuid()` it makes drawn from `random`: the same walk of the clock makes the same ids. */
export function withIdSource<T>(random: Random, fn: () => T): T {
  const before = idSource
  idSource = random
  try {
    return fn()
  } finally {
    idSource = before
  }
}

/** A v4 UUID; deterministic when given a seeded generator (or inside `withIdSource`). */
export function uuid(random: Random | undefined = idSource): string {
  if (!random) return randomUUID()
  const word = () =>
    Math.floor(random() * 4294967296)
      .toString(16)
      .padStart(8, '0')
  const s = word() + word() + word() + word()
  const variant = '89ab'[parseInt(s[16]!, 16) & 3]!
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20)}`
}

let crcTable: Uint32Array | undefined

/** CRC-32 (IEEE, as zlib's) of an ASCII text; node:zlib is not loaded for 37 characters. */
export function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (let i = 0; i < text.length; i++) crc = crcTable[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function base62(n: number, width: number): string {
  let out = ''
  let v = n >>> 0
  do {
    out = BASE62[v % 62] + out
    v = Math.floor(v / 62)
  } while (v > 0)
  return out.padStart(width, '0')
}

/** `prefix` + 37 random alphanumerics + 6-character base62 CRC32 of those 37 characters. */
export function token(prefix: string, random: Random = cryptoRandom): string {
  const body = Array.from({length: 37}, () => ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length)]).join('')
  return `${prefix}${body}${base62(crc32(body), 6)}`
}

/** True when the last 6 characters are the checksum of the 37 before them. */
export function hasValidChecksum(value: string, prefix: string): boolean {
  if (!value.startsWith(prefix)) return false
  const rest = value.slice(prefix.length)
  if (rest.length !== 43 || !/^[A-Za-z0-9]+$/.test(rest)) return false
  return base62(crc32(rest.slice(0, 37)), 6) === rest.slice(37)
}

export const TOKEN_PREFIXES = {
  organization: 'polar_oat_',
  customer: 'polar_cst_',
  checkout: 'polar_c_',
  checkoutLink: 'polar_cl_',
  webhookSecret: 'whsec_',
} as const

/** Every prefix the service resolves; a bearer token with none of them is `invalid_token`. */
export const KNOWN_PREFIXES = ['polar_oat_', 'polar_pat_', 'polar_at_u_', 'polar_at_o_', 'polar_rt_u_', 'polar_rt_o_', 'polar_cst_', 'polar_mst_', 'polar_us_']
