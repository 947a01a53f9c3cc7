// Columns of checkouts, checkout links, benefits and grants.
import type {ResourceColumns} from './columns.js'

export const catalogColumns: Record<string, ResourceColumns> = {}
