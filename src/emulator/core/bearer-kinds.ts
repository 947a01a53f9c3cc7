// Bearer tokens a resource resolves itself (OAuth access tokens), besides the organization and customer
// tokens the pipeline knows: the core holds the registry, the resource registers its kind.
import type {Auth, Env} from './env.js'

/** A kind of bearer token a resource resolves itself (OAuth access tokens): see `registerBearerKind`. */
export interface BearerKind {
  prefixes: string[]
  /** What the token stands for, or null when it is unknown, expired or revoked (401 invalid_token). */
  resolve(env: Env, token: string, now: number): Auth | null
  /** Who its requests count against for rate limits (the OAuth client), when known. */
  identity?(env: Env, token: string): string | undefined
}

const bearerKinds: BearerKind[] = []

/** Lets a resource resolve tokens with these prefixes (registered once, whatever the number of servers). */
export function registerBearerKind(kind: BearerKind): void {
  if (!bearerKinds.some((k) => k.prefixes.join() === kind.prefixes.join())) bearerKinds.push(kind)
}

export const bearerKindOf = (token: string) => bearerKinds.find((k) => k.prefixes.some((p) => token.startsWith(p)))
