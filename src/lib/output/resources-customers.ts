// Columns of customers, license keys, webhook endpoints and the organization.
import type {ResourceColumns} from './columns.js'

export const customerColumns: Record<string, ResourceColumns> = {}
