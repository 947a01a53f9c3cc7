// Customer sessions: a Customer Portal token for one customer, made with the organization token
// (`customer-sessions:create`).
import type {ApiClient} from '../client.js'
import type {CustomerSession, CustomerSessionCreate} from '../wire/index.js'

/** One of `customer_id` and `external_customer_id`, and where the portal's "back" link goes. */
export type SessionCreate = CustomerSessionCreate

/** CustomerSession (201); `token` (`polar_cst_…`) is shown only in this response. */
export type {CustomerSession}

export const createCustomerSession = (client: ApiClient, body: SessionCreate) => client.post<CustomerSession>('/customer-sessions/', body)
