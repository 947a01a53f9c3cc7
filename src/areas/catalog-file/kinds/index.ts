// The kinds of catalog objects, in dependency order: a kind comes after the kinds it refers to, so apply
// creates benefits before the products that use them. Meters (before benefits and products), custom
// fields (before products) and discounts (after products, before checkout links) are one module each, added here.
import {benefits} from './benefits.js'
import {checkoutLinks} from './checkout-links.js'
import type {Kind} from './kind.js'
import {products} from './products.js'

// Each kind has its own entry type; the machinery passes entries only to the kind that parsed them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = Kind<any>

export const KINDS: AnyKind[] = [benefits, products, checkoutLinks]

export const kindOf = (section: string) => KINDS.find((k) => k.section === section)
