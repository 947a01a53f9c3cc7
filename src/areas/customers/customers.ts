// What the customer commands share: addressing a customer by id or external id, `key=value` pairs,
// billing address flags, and the readable view of a customer's state.
import {Flags} from '@oclif/core'

import type {ApiClient} from '../../client/client.js'
import type {Item} from '../../client/resources/common.js'
import {listCustomers, type CustomerRef} from '../../client/resources/customers.js'
import type {ResolvedProfile} from '../../cli/context.js'
import {usageError} from '../../client/till-error.js'
import type {Choice, Prompter} from '../../cli/prompt.js'
import {ruleText, type Rule} from '../../client/rate-limit.js'

/** `--external-id`: address the customer by the organization's own id for it. */
/**
 * `--billing-name` of `customers create|update`, kept hidden only to refuse it: no customer create or
 * update of the API has a billing name (the service ignores one), it comes from the customer's checkouts,
 * the customer portal, and an order's own billing details.
 */
export const billingNameFlag = Flags.string({hidden: true, description: 'Refused: the API takes no billing name for a customer.'})

export function refuseBillingName(given: string | undefined): void {
  if (given === undefined) return
  throw usageError(
    "--billing-name: the API takes no billing name for a customer (the service sets it from checkouts and the customer portal; an order's: till orders update ID --billing-name)",
  )
}

export const externalIdFlag = Flags.string({
  char: 'e',
  description: 'Address the customer by your external id instead of ID (- reads external ids from stdin).',
  aliases: ['customer-external-id'],
  deprecateAliases: true,
})

/** Up to 100 customers, newest first, to pick from in a prompt. */
export async function customerChoices(client: ApiClient): Promise<Choice[]> {
  const choices: Choice[] = []
  for await (const c of listCustomers(client, {}, {limit: 100})) {
    const name = typeof c.name === 'string' && c.name ? ` (${c.name})` : ''
    choices.push({name: `${String(c.email)}${name}`, value: c.id, description: c.external_id ? `external id ${String(c.external_id)}` : c.id})
  }
  return choices
}

export interface CustomerTarget {
  /** The id, the external id, or `-` for ids from stdin. */
  value: string
  /** The reference for one value (from the argument or read from stdin). */
  ref(value: string): CustomerRef
}

/**
 * Which customer a command acts on: the ID argument, or --external-id, or (neither given, on a
 * terminal) one picked from the list.
 */
export async function customerTarget(
  id: string | undefined,
  externalId: string | undefined,
  prompter: Prompter,
  client: () => Promise<ApiClient>,
  purpose: string,
): Promise<CustomerTarget> {
  if (id !== undefined && externalId !== undefined) throw usageError('give either a customer ID or --external-id, not both')
  if (externalId !== undefined && externalId.trim() === '')
    throw usageError('--external-id is empty', "give the id your own system gave the customer, e.g. --external-id user_1234, or the customer's ID")
  if (externalId !== undefined) return {value: externalId, ref: (v) => ({externalId: v})}
  const value = id ?? (await prompter.select('ID or --external-id', purpose, async () => customerChoices(await client())))
  return {value, ref: (v) => ({id: v})}
}

// ---- customer state ----

/** Rows of the readable state view: subscriptions and benefits, with product names and benefit descriptions. */
export interface StateView {
  subscriptions: Item[]
  benefits: Item[]
}

const list = (value: unknown): Item[] => (Array.isArray(value) ? (value as Item[]) : [])

/** Names of the given ids, by `GET path/ID` (a failure leaves the id unnamed). */
async function namesOf(client: ApiClient, path: string, ids: unknown[], field: string): Promise<Map<unknown, string>> {
  const names = new Map<unknown, string>()
  await Promise.all(
    [...new Set(ids)]
      .filter((id) => typeof id === 'string')
      .map(async (id) => {
        try {
          const item = await client.get<Item>(`${path}${encodeURIComponent(id as string)}`)
          if (typeof item[field] === 'string') names.set(id, item[field] as string)
        } catch {
          // the id alone is still shown
        }
      }),
  )
  return names
}

/** The state's two lists, each row completed with the name of its product or benefit. */
export async function stateView(client: ApiClient, state: Item): Promise<StateView> {
  const subscriptions = list(state.active_subscriptions)
  const benefits = list(state.granted_benefits)
  const [products, descriptions] = await Promise.all([
    namesOf(
      client,
      '/products/',
      subscriptions.map((s) => s.product_id),
      'name',
    ),
    namesOf(
      client,
      '/benefits/',
      benefits.map((b) => b.benefit_id),
      'description',
    ),
  ])
  return {
    subscriptions: subscriptions.map((s) => ({...s, product: products.get(s.product_id) ?? s.product_id})),
    benefits: benefits.map((b) => ({...b, benefit: descriptions.get(b.benefit_id) ?? b.benefit_id})),
  }
}

/** Both lists as one, each row marked with its `kind`, for csv and tsv. */
/** Both lists as rows with a kind column, and the customer's id on each (so that rows of several customers can be told apart). */
export const stateRows = (view: StateView, customerId: unknown): Item[] => [
  ...view.subscriptions.map((s) => ({...s, kind: 'subscription', metadata: s.metadata, customer_id: customerId})),
  ...view.benefits.map((b) => ({...b, kind: 'benefit', status: 'granted', metadata: b.benefit_metadata, customer_id: customerId})),
]

/** The first line of the state view: who the customer is. */
export function stateHeading(state: Item): string {
  const name = typeof state.name === 'string' && state.name ? ` (${state.name})` : ''
  const external = state.external_id ? `, external id ${String(state.external_id)}` : ''
  return `Customer ${String(state.email)}${name}: ${state.id}${external}`
}

// ---- the organization ----

const RATE_SOURCES: Record<ResolvedProfile['rateLimitSource'], string> = {
  environment: "the environment's default",
  profile: 'set on the profile',
  env: 'set by TILL_RATE_LIMIT',
}

/** `org show`: a flat view for tables, and for JSON the API's organization with the profile's facts beside it. */
export function organizationSummary(org: Item, profile: ResolvedProfile, perIp: Rule) {
  const where = {profile: profile.name, environment: profile.environment, base_url: profile.baseUrl}
  return {
    view: {
      id: org.id,
      name: org.name,
      slug: org.slug,
      email: org.email ?? null,
      website: org.website ?? null,
      created_at: org.created_at,
      ...where,
      rate_limit: `${ruleText(profile.rateLimit)} (${RATE_SOURCES[profile.rateLimitSource]})`,
      ip_rate_limit: ruleText(perIp),
    },
    json: {
      organization: org,
      ...where,
      rate_limit: {limit: profile.rateLimit.limit, window_seconds: profile.rateLimit.windowMs / 1000, source: profile.rateLimitSource},
      ip_rate_limit: {limit: perIp.limit, window_seconds: perIp.windowMs / 1000},
    },
  }
}
