// OAuth2: the organization's registered clients, authorization codes waiting to be exchanged and the
// access/refresh token pairs issued (records in the store, like the organization access tokens).
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    oauth2_clients: OAuth2ClientRecord[]
    oauth2_codes: OAuth2CodeRecord[]
    oauth2_tokens: OAuth2TokenRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({
  oauth2_clients: [] as OAuth2ClientRecord[],
  oauth2_codes: [] as OAuth2CodeRecord[],
  oauth2_tokens: [] as OAuth2TokenRecord[],
})

export type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none'
export type SubType = 'user' | 'organization'

export interface OAuth2ClientRecord {
  /** The client id (`polar_ci_...`): clients are found by it. */
  id: string
  created_at: string
  modified_at: string | null
  client_secret: string
  client_id_issued_at: number
  client_secret_expires_at: number
  redirect_uris: string[]
  token_endpoint_auth_method: AuthMethod
  grant_types: Array<'authorization_code' | 'refresh_token'>
  response_types: Array<'code'>
  scope: string
  client_name: string
  client_uri: string | null
  logo_uri: string | null
  tos_uri: string | null
  policy_uri: string | null
  default_sub_type: SubType
}

export interface OAuth2CodeRecord {
  id: string
  /** `polar_ac_...` */
  code: string
  client_id: string
  redirect_uri: string
  scope: string
  code_challenge: string | null
  code_challenge_method: string | null
  sub_type: SubType
  sub: string
  created_at: string
  expires_at: string
  used: boolean
}

export interface OAuth2TokenRecord {
  id: string
  client_id: string
  /** `polar_at_u_...` or `polar_at_o_...` */
  access_token: string
  /** `polar_rt_u_...` or `polar_rt_o_...` */
  refresh_token: string
  scope: string
  sub_type: SubType
  sub: string
  issued_at: string
  /** When the access token expires. */
  expires_at: string
  /** Set when the access token was revoked (alone, or with its refresh token). */
  access_revoked_at: string | null
  /** Set when the refresh token was revoked or used (rotation: each is good for one refresh). */
  refresh_revoked_at: string | null
}
