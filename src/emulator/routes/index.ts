// Every route of the emulated API, by resource.
import type {Router} from '../http.js'
import * as benefits from './benefits.js'
import * as checkouts from './checkouts.js'
import * as customerSessions from './customer-sessions.js'
import * as customFields from './custom-fields.js'
import * as customers from './customers.js'
import * as discounts from './discounts.js'
import * as exports from './exports.js'
import * as files from './files.js'
import * as licenseKeys from './license-keys.js'
import * as orders from './orders.js'
import * as organizations from './organizations.js'
import * as portal from './portal.js'
import * as payments from './payments.js'
import * as products from './products.js'
import * as refunds from './refunds.js'
import * as subscriptions from './subscriptions.js'
import * as webhooks from './webhooks.js'

const modules = [products, benefits, checkouts, orders, refunds, subscriptions, customers, customerSessions, licenseKeys, webhooks, organizations, portal, discounts, payments, exports, customFields, files]

export function register(router: Router): void {
  for (const m of modules) m.register(router)
}
