// Customers' saved payment methods beyond the card derived from their first payment (derive.ts): cards
// added in the portal, the setup intents of those that needed the customer's action, and tombstones of
// deleted ones (a derived card's too, so that it stays deleted).
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    payment_methods: PaymentMethodRecord[]
    setup_intents: SetupIntentRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({payment_methods: [] as PaymentMethodRecord[], setup_intents: [] as SetupIntentRecord[]})

export interface CardRecord {
  brand: string
  last4: string
  exp_month: number
  exp_year: number
}

export interface PaymentMethodRecord {
  id: string
  created_at: string
  modified_at: string | null
  customer_id: string
  card: CardRecord
  /** Set when the customer deleted it: it is listed no more. */
  deleted_at: string | null
}

/** A card setup that needed the customer's action (3-D Secure): confirmed later by its id. */
export interface SetupIntentRecord {
  id: string
  created_at: string
  customer_id: string
  card: CardRecord
  set_default: boolean
  /** The payment method made when it was confirmed (a second confirmation answers it again). */
  payment_method_id: string | null
}
