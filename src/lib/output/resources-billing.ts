// Columns of refunds and subscriptions.
import type {ResourceColumns} from './columns.js'

export const billingColumns: Record<string, ResourceColumns> = {}
