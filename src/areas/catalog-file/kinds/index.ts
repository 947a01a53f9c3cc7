// The kinds of catalog objects, in dependency order: a kind comes after the kinds it refers to, so apply
// creates meters, custom fields and benefits (a meter credit names a meter) before the products that use
// them, and products before the discounts and checkout links restricted to them. Webhook endpoints refer
// to nothing. Archives (--prune) run in the reverse order: products before their meters.
import {benefits} from './benefits.js'
import {checkoutLinks} from './checkout-links.js'
import {customFields} from './custom-fields.js'
import {discounts} from './discounts.js'
import type {Kind} from './kind.js'
import {meters} from './meters.js'
import {products} from './products.js'
import {webhookEndpoints} from './webhook-endpoints.js'

// Each kind has its own entry type; the machinery passes entries only to the kind that parsed them.
// biome-ignore lint/suspicious/noExplicitAny: each kind has its own entry type, known only to that kind
export type AnyKind = Kind<any>

export const KINDS: AnyKind[] = [meters, customFields, benefits, products, discounts, checkoutLinks, webhookEndpoints]

export const kindOf = (section: string) => KINDS.find((k) => k.section === section)
