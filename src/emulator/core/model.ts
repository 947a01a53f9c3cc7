// Types shared by the whole emulator. Each resource declares its own records in
// `resources/<resource>/model.ts` and adds its collections to `EnvData` there (declaration merging).

export type EnvName = 'production' | 'sandbox'
export type Metadata = Record<string, string | number | boolean>

export interface Address {
  country: string
  line1?: string | null
  line2?: string | null
  postal_code?: string | null
  city?: string | null
  state?: string | null
}

export interface Organization {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  slug: string
  avatar_url: string | null
  email: string | null
  website: string | null
  /** The service's `off_session_charges_enabled` feature (draft orders and their off-session charges); absent: off. */
  off_session_charges_enabled?: boolean
}

export interface TokenRecord {
  token: string
  kind: 'organization' | 'customer'
  /** organization id for `organization`, customer id for `customer` */
  subject_id: string
  created_at: string
  expires_at: string | null
}

export interface SeedOptions {
  products: number
  customers: number
  orders: number
}

/** One environment's whole state (what is saved in `<data>/<env>.json`); resources add their collections. */
export interface EnvData {
  schema: 1
  environment: EnvName
  /** The sizes this store was seeded with; `till emulator reset` seeds again with them. */
  seed: SeedOptions
  /** Increased by every committed write; lets other processes see the file changed. */
  version: number
  /**
   * Per append-only log beside the store, the version of the last write that appended to it: the log's lines
   * of a later version are a killed write's (core/append-log.ts). Absent in a store no write appended from.
   */
  log_commits?: Record<string, number>
  organization: Organization
  tokens: TokenRecord[]
}

export type CollectionName = {
  [K in keyof EnvData]-?: EnvData[K] extends Array<{id: string}> ? K : never
}[keyof EnvData]
