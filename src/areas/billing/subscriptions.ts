// Pieces shared by the subscriptions commands: what an action will do (for its confirmation), the
// product choices of `subscriptions update`, and the check that ids from stdin really come from a pipe.
import type {ApiClient} from '../../client/client.js'
import {ApiError} from '../../client/errors.js'
import {markAlreadyDone} from '../../client/attempt.js'
import type {Item} from '../../client/resources/common.js'
import {getDiscount} from '../../client/resources/discounts.js'
import {getProduct, listProducts} from '../../client/resources/products.js'
import {getSubscription} from '../../client/resources/subscriptions.js'
import type {IO} from '../../cli/context.js'
import {usageError} from '../../client/till-error.js'
import {formatMoney} from '../../cli/input/money.js'
import {billingInterval} from './columns.js'
import type {Choice} from '../../cli/prompt.js'

const name = (value: unknown, fallback: unknown) => (value as {name?: string} | null)?.name ?? String(fallback)
const email = (value: unknown, fallback: unknown) => (value as {email?: string} | null)?.email ?? String(fallback)
const day = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 10) : 'the end of the period')

/** `subscription ID of ada@example.com to Pro ($10.00 monthly)`. */
export function describeSubscription(s: Item): string {
  const price =
    typeof s.amount === 'number' && typeof s.currency === 'string' ? ` (${formatMoney(s.amount, s.currency, {grouping: true})} ${billingInterval(s)})` : ''
  return `subscription ${s.id} of ${email(s.customer, s.customer_id)} to ${name(s.product, s.product_id)}${price}`
}

/** The words of one subscription action's confirmation. */
export interface ActionWords {
  /** Without reading the subscription, e.g. `cancel subscription ID at the end of its current period`. */
  plain(id: string): string
  /** With the subscription read: who, what and when. */
  detailed(s: Item): Promise<string> | string
  /** For ids read from stdin. */
  bulk: string
}

/**
 * The confirmation summary of an action on `id` (or `-`). The subscription is read only when a person
 * will see the question (`readFirst`), so `--yes` and pipes cost no extra request.
 */
export async function actionSummary(client: ApiClient, id: string, words: ActionWords, readFirst: boolean): Promise<string> {
  if (id === '-') return words.bulk
  if (!readFirst) return words.plain(id)
  return words.detailed(await getSubscription(client, id))
}

export const cancelWords: ActionWords = {
  plain: (id) => `cancel subscription ${id} at the end of its current period`,
  detailed: (s) => `cancel ${describeSubscription(s)} at the end of its period, on ${day(s.current_period_end)}`,
  bulk: 'cancel every subscription read from stdin, each at the end of its period',
}

export const revokeWords: ActionWords = {
  plain: (id) => `revoke subscription ${id} now (it ends at once, with its benefits)`,
  detailed: (s) => `revoke ${describeSubscription(s)} now (it ends at once, with its benefits)`,
  bulk: 'revoke every subscription read from stdin now (each ends at once, with its benefits)',
}

/** Words of a plan change to `productId`; the target product is read for the detailed form. */
export function planChangeWords(client: ApiClient, productId: string, proration: string | undefined): ActionWords {
  const how = proration ? ` (proration: ${proration})` : " (proration: the organization's default)"
  return {
    plain: (id) => `move subscription ${id} to product ${productId}${how}`,
    async detailed(s) {
      const target = await getProduct(client, productId)
      return `move ${describeSubscription(s)} to ${name(target, productId)}${how}`
    },
    bulk: `move every subscription read from stdin to product ${productId}${how}`,
  }
}

/** Words of a seats change to `seats` seats. */
/** The words of a units change (a unit-based subscription). */
export function unitsWords(units: number, proration: string | undefined): ActionWords {
  const how = proration ? ` (proration: ${proration})` : " (proration: the organization's default)"
  return {
    plain: (id) => `set subscription ${id} to ${units} units${how}`,
    detailed: (s) => `set ${describeSubscription(s)} to ${units} units${how}`,
    bulk: `set every subscription read from stdin to ${units} units${how}`,
  }
}

export function seatsWords(seats: number, proration: string | undefined): ActionWords {
  const how = proration ? ` (proration: ${proration})` : " (proration: the organization's default)"
  return {
    plain: (id) => `set subscription ${id} to ${seats} seats${how}`,
    detailed: (s) => `set ${describeSubscription(s)} from ${typeof s.seats === 'number' ? s.seats : 'no'} to ${seats} seats${how}`,
    bulk: `set every subscription read from stdin to ${seats} seats${how}`,
  }
}

/** Words of a discount change: `discountId` applied, or with null the discount removed; both from the next renewal. */
export function discountWords(client: ApiClient, discountId: string | null): ActionWords {
  if (discountId === null) {
    return {
      plain: (id) => `remove the discount of subscription ${id} (from its next renewal)`,
      detailed: (s) => `remove the discount of ${describeSubscription(s)} (from its next renewal)`,
      bulk: 'remove the discount of every subscription read from stdin (from its next renewal)',
    }
  }
  return {
    plain: (id) => `apply discount ${discountId} to subscription ${id} (from its next renewal)`,
    async detailed(s) {
      const discount = await getDiscount(client, discountId)
      return `apply discount ${name(discount, discountId)} to ${describeSubscription(s)} (from its next renewal)`
    },
    bulk: `apply discount ${discountId} to every subscription read from stdin (from its next renewal)`,
  }
}

/** Recurring products still sold, for the --product prompt. */
export async function planChoices(client: ApiClient): Promise<Choice[]> {
  const choices: Choice[] = []
  for await (const p of listProducts(client, {recurring: true, archived: false}, {all: true, limit: 100, maxItems: 200})) {
    choices.push({name: `${String(p.name)}  ${billingInterval(p)}`, value: p.id})
  }
  return choices
}

/**
 * With `-` as the id, stdin must be a pipe: checked before any question is asked, so a person is not
 * asked to confirm a run that then cannot read its ids.
 */
export function checkIdsFromStdin(id: string, io: IO, source = 'till subscriptions list --active --all -o jsonl'): void {
  if (id === '-' && io.stdinIsTTY) {
    throw usageError('"-" reads ids from stdin, but stdin is a terminal', `pipe ids in, e.g.: ${source} | till ...`)
  }
}

// ---- repeating a state change that is already true: success, with a note ----

/** Which state a change asks for, and how to tell it already holds. */
interface Already {
  /** The service's refusal that may mean "already so". */
  refusal: (e: ApiError) => boolean
  /** The note when the subscription is already in the asked state; undefined when it is not. */
  note: (s: Item) => string | undefined
}

const ended = (s: Item) => (s.ended_at ? `subscription ${s.id} already ended on ${day(s.ended_at)}; nothing changed` : undefined)

const ALREADY: Record<'cancel' | 'uncancel' | 'revoke', Already> = {
  cancel: {
    refusal: (e) => e.code === 'AlreadyCanceledSubscription',
    note: (s) =>
      ended(s) ??
      (s.cancel_at_period_end
        ? `subscription ${s.id} is already set to cancel at the end of its period (${day(s.ends_at ?? s.current_period_end)}); nothing changed`
        : undefined),
  },
  uncancel: {
    refusal: (e) => e.status === 400,
    note: (s) =>
      !s.ended_at && !s.cancel_at_period_end
        ? `subscription ${s.id} is not set to cancel; it renews on ${day(s.current_period_end)}; nothing changed`
        : undefined,
  },
  // The service counts an unpaid subscription as revoked already (its benefits went when its payments failed):
  // it refuses to revoke it again, as it refuses an ended one.
  revoke: {
    refusal: (e) => e.code === 'AlreadyCanceledSubscription',
    note: (s) =>
      ended(s) ??
      (s.status === 'unpaid'
        ? `subscription ${s.id} is already revoked (status unpaid: the service revoked it when its payments failed); nothing changed`
        : undefined),
  },
}

/**
 * Runs `change` on a subscription (`read` reads it); when the service refuses it because the subscription is already
 * in the asked state (cancel twice, revoke an ended one, uncancel one that renews), the subscription
 * is read and returned as the result, and `say` gets a note. Any other refusal is thrown as it is.
 */
export async function unlessAlready(
  read: () => Promise<Item>,
  kind: keyof typeof ALREADY,
  change: () => Promise<Item>,
  say: (line: string) => void,
): Promise<Item> {
  try {
    return await change()
  } catch (error) {
    if (!(error instanceof ApiError) || !ALREADY[kind].refusal(error)) throw error
    const s = await read()
    const note = ALREADY[kind].note(s)
    if (note === undefined) throw error
    say(`Note: ${note}.`)
    markAlreadyDone(note.replace(/; nothing changed$/, ''))
    return s
  }
}
