// What every presenter shares: the view of one environment at one moment, and the organization.
import type {components} from '../../client/wire/index.js'
import {API_VERSION, type ApiVersion} from '../../client/version.js'
import type {Organization} from './model.js'
import type {Store} from './store.js'

/** What presenters need: the environment's store, the clock, the public addresses and the API version. */
export interface View {
  store: Store
  now: number
  /** The service origin, e.g. `http://127.0.0.1:4010` (API under `/v1`). */
  origin: string
  /** The request's `Polar-Version` (or a webhook endpoint's `api_version`); absent: the service's default. */
  version?: ApiVersion
}

/** Whether the view's API version is `version` or a later one (the shapes a version added apply). */
export const since = (v: View, version: ApiVersion): boolean => (v.version ?? API_VERSION) >= version

export const orgId = (v: View) => v.store.data.organization.id

export function organization(o: Organization) {
  return {
    id: o.id,
    created_at: o.created_at,
    modified_at: o.modified_at,
    name: o.name,
    slug: o.slug,
    avatar_url: o.avatar_url,
    email: o.email,
    website: o.website,
    socials: [],
    status: 'active',
    details_submitted_at: o.created_at,
    onboarding_resubmission_requested_at: null,
    proration_behavior: 'prorate',
    allow_customer_updates: true,
    sso_enforced: false,
    default_presentment_currency: 'usd',
    default_tax_behavior: 'location',
    feature_settings: {
      issue_funding_enabled: false,
      seat_based_pricing_enabled: true,
      wallets_enabled: false,
      member_model_enabled: false,
      checkout_localization_enabled: false,
      overview_metrics: null,
      reset_proration_behavior_enabled: false,
      off_session_charges_enabled: o.off_session_charges_enabled ?? false,
      slack_benefit_enabled: false,
      preview_access_enabled: false,
      meter_cycling_enabled: false,
      disputes_enabled: false,
      sso_enabled: false,
      dispute_auto_accept_enabled: false,
      compass_enabled: false,
      merchant_migration_enabled: false,
    },
    subscription_settings: {
      allow_multiple_subscriptions: false,
      allow_customer_updates: true,
      proration_behavior: 'prorate',
      benefit_revocation_grace_period: 0,
      prevent_trial_abuse: false,
    },
    notification_settings: {new_order: true, new_subscription: true},
    customer_email_settings: {
      order_confirmation: true,
      payment_method_expiration_reminder: true,
      subscription_cancellation: true,
      subscription_confirmation: true,
      subscription_cycled: true,
      subscription_cycled_after_trial: true,
      subscription_past_due: true,
      subscription_paused: true,
      subscription_resumed: true,
      subscription_renewal_reminder: true,
      subscription_revoked: true,
      subscription_trial_conversion_reminder: true,
      subscription_uncanceled: true,
      subscription_updated: true,
    },
    customer_portal_settings: {usage: {show: true}, subscription: {update_seats: true, update_plan: true, pause: false}, customer: {allow_email_change: true}},
    // in USD cents whatever the dispute's currency; null: Polar never concedes a dispute on the organization's behalf
    dispute_settings: {auto_accept_below_amount: null},
    embed_hosts: [],
    embed_hosts_enforced: false,
    country: 'US',
    account_id: null,
    payout_account_id: null,
    capabilities: {checkout_payments: true, subscription_renewals: true, payouts: true, refunds: true, api_access: true, dashboard_access: true},
  }
}

/**
 * A record the document requires an answer to embed (an order's customer, a grant's benefit): the store
 * keeps every record another refers to, so it is there; were it not, the contract mode would say so.
 */
export const embedded = <T>(value: T | null): T => value as T

/**
 * What a presenter returns for the document's schema `N`: its fields by name, each present when the schema
 * requires it and of its kind (string, number, object, list, null), checked by the compiler. String enums
 * are loosened to string: the values are the contract mode's to check, at run time, against the document.
 */
export type Presented<N extends keyof WireSchemas> = Loose<WireSchemas[N]>

type Loose<T> = T extends string ? string : T extends readonly (infer U)[] ? Loose<U>[] : T extends object ? {[K in keyof T]: Loose<T[K]>} : T
type WireSchemas = components['schemas']
