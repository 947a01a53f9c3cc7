// Every area's columns by resource name: the registry that commands pick theirs from.
import {cliColumns, type ResourceColumns} from '../cli/output/columns.js'
import {billingColumns} from './billing/columns.js'
import {catalogColumns} from './catalog/columns.js'
import {customerColumns} from './customers/columns.js'
import {oauth2Columns} from './oauth2/clients.js'
import {salesColumns} from './sales/columns.js'
import {seatsColumns} from './seats/columns.js'
import {portalColumns} from './portal/columns.js'
import {usageColumns} from './usage/columns.js'

export const resourceColumns: Record<string, ResourceColumns> = {
  ...cliColumns,
  ...catalogColumns,
  ...billingColumns,
  ...customerColumns,
  ...portalColumns,
  ...usageColumns,
  ...oauth2Columns,
  ...salesColumns,
  ...seatsColumns,
}
