// The portal's own records: pending e-mail changes (with the token the verification e-mail carries) and
// customers' wallets (a balance with the organization, topped up through the control API).
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    email_verifications: EmailVerificationRecord[]
    wallets: WalletRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({email_verifications: [] as EmailVerificationRecord[], wallets: [] as WalletRecord[]})

export interface EmailVerificationRecord {
  id: string
  created_at: string
  customer_id: string
  /** The new address, set on the customer once verified. */
  email: string
  /** What the e-mail's link carries (the service keeps only its hash). */
  token: string
  expires_at: string
}

export interface WalletRecord {
  id: string
  created_at: string
  modified_at: string | null
  customer_id: string
  /** In cents of `currency`. */
  balance: number
  currency: string
}
