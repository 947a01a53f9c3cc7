// What the service has that is newer than its published document, and the official SDK 1.0.1 already
// types or calls: added to a copy of the document the contract mode checks against, each with its reason.
type Json = Record<string, unknown>

/**
 * Fields newer than the document that the official SDK 1.0.1 types (the service's newer contract): added
 * to a copy of the document, so that sending them is not taken for a field the service ignores.
 */
const NEWER: Array<{schema: string; property: string; definition: Json}> = [
  ...['WebhookEndpointCreate', 'WebhookEndpointUpdate'].map((schema) => ({
    schema,
    property: 'api_version',
    definition: {anyOf: [{type: 'string', enum: ['2026-04', '2026-10', '2027-01']}, {type: 'null'}], description: 'SDK 1.0.1: the API version of the payloads'},
  })),
]

const ref = (name: string) => ({content: {'application/json': {schema: {$ref: `#/components/schemas/${name}`}}}})
const domainErrorSchema = (name: string) => ({
  type: 'object',
  properties: {error: {type: 'string', const: name}, detail: {type: 'string'}},
  required: ['error', 'detail'],
  title: name,
})

/** The `id` path parameter of these operations, a UUID as the document declares its own. */
const ID_PATH = {name: 'id', in: 'path', required: true, schema: {type: 'string', format: 'uuid4'}}

/**
 * Operations newer than the document that the official SDK 1.0.1 calls (its 2026-10 client), each with
 * the reason it is here: added to the copy of the document, with the answers the SDK parses, so that
 * requests and answers are checked as any other's. `schemas` are the error shapes the document lacks.
 */
const NEWER_OPERATIONS: Array<{
  path: string
  method: string
  operation: Json
  schemas?: Record<string, Json>
  /** Query parameters taken as they are from an operation of the document that has the same ones. */
  parametersFrom?: {path: string; method: string; names: string[]}
  why: string
}> = [
  ...[
    {
      path: '/v1/customers/{id}/members',
      id: 'customers:members:list',
      key: ID_PATH,
    },
    {
      path: '/v1/customers/external/{external_id}/members',
      id: 'customers:members:list_external',
      key: {name: 'external_id', in: 'path', required: true, schema: {type: 'string'}},
    },
  ].map(({path, id, key}) => ({
    path,
    method: 'get',
    why: "SDK 1.0.1 customers.members.list: a customer's members, a page of Member as GET /v1/members/ answers, with its role, page, limit and sorting",
    parametersFrom: {path: '/v1/members/', method: 'get', names: ['role', 'page', 'limit', 'sorting']},
    operation: {
      operationId: id,
      parameters: [key],
      responses: {'200': ref('ListResource_Member_'), '404': ref('ResourceNotFound'), '422': ref('HTTPValidationError')},
      security: ['oidc', 'pat', 'oat'].map((scheme) => ({[scheme]: ['members:read', 'members:write']})),
    },
  })),
  {
    path: '/v1/customer-portal/license-keys/{id}/rotate',
    method: 'post',
    why: "SDK 1.0.1 customerPortal.licenseKeys.rotate: the customer's own key rotated (RotatedLicenseKey: LicenseKeyRead's fields)",
    operation: {
      operationId: 'customer_portal:license_keys:rotate',
      parameters: [ID_PATH],
      responses: {'200': ref('LicenseKeyRead'), '400': ref('RotateNotPermitted'), '401': ref('Unauthorized'), '404': ref('ResourceNotFound')},
      security: ['customer_session', 'member_session'].map((scheme) => ({[scheme]: ['customer_portal:write']})),
    },
    schemas: {RotateNotPermitted: domainErrorSchema('RotateNotPermitted')},
  },
  {
    path: '/v1/products/{id}',
    method: 'delete',
    why: 'SDK 1.0.1 products.delete: a product without orders, subscriptions, trials or discounts can be deleted (409 ProductNotDeletable otherwise)',
    operation: {
      operationId: 'products:delete',
      parameters: [ID_PATH],
      responses: {'204': {description: 'Product deleted.'}, '403': ref('NotPermitted'), '404': ref('ResourceNotFound'), '409': ref('ProductNotDeletable')},
      security: ['oidc', 'pat', 'oat'].map((scheme) => ({[scheme]: ['products:write']})),
    },
    schemas: {ProductNotDeletable: domainErrorSchema('ProductNotDeletable')},
  },
  {
    path: '/v1/license-keys/{id}/rotate',
    method: 'post',
    why: "SDK 1.0.1 licenseKeys.rotate: a new key string for the same license key (RotatedLicenseKey, the 2026-10 LicenseKeyRead's fields)",
    operation: {
      operationId: 'license_keys:rotate',
      parameters: [ID_PATH],
      responses: {'200': ref('LicenseKeyRead'), '400': ref('RotateNotPermitted'), '401': ref('Unauthorized'), '404': ref('ResourceNotFound')},
      security: ['oidc', 'pat', 'oat'].map((scheme) => ({[scheme]: ['license_keys:write']})),
    },
    schemas: {RotateNotPermitted: domainErrorSchema('RotateNotPermitted')},
  },
]

/**
 * Query parameters an operation reads that the document does not declare, with the reason: added to the
 * operation in the copy, so that sending them is not taken for a parameter the service ignores.
 */
const UNDECLARED_PARAMETERS: Array<{path: string; method: string; names: string[]; why: string}> = [
  {
    path: '/v1/oauth2/authorize',
    method: 'get',
    names: ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'sub_type', 'nonce', 'prompt'],
    why: 'the authorization request of RFC 6749 §4.1.1 (and OpenID Connect), which the service reads from the request itself through its OAuth library',
  },
]

/** A copy of the document with the fields and operations newer than it. */
export function withNewer(document: Json): Json {
  const copy = structuredClone(document)
  const schemas = (copy.components as {schemas: Record<string, {properties?: Json}>}).schemas
  for (const {schema, property, definition} of NEWER) {
    const target = schemas[schema]
    if (target?.properties && !(property in target.properties)) target.properties[property] = definition
  }
  const paths = copy.paths as Record<string, Json>
  for (const {path, method, names} of UNDECLARED_PARAMETERS) {
    const operation = paths[path]?.[method] as {parameters?: Json[]} | undefined
    if (!operation) continue
    const known = new Set((operation.parameters ?? []).map((p) => p.name))
    operation.parameters = [
      ...(operation.parameters ?? []),
      ...names.filter((n) => !known.has(n)).map((name) => ({name, in: 'query', required: false, schema: {type: 'string'}})),
    ]
  }
  for (const {path, method, operation, schemas: added, parametersFrom: from} of NEWER_OPERATIONS) {
    if (paths[path]?.[method]) continue
    const borrowed = from
      ? ((paths[from.path]?.[from.method] as {parameters?: Json[]} | undefined)?.parameters ?? []).filter((p) => from.names.includes(p.name as string))
      : []
    paths[path] = {...paths[path], [method]: {...operation, parameters: [...((operation.parameters as Json[] | undefined) ?? []), ...borrowed]}}
    for (const [name, schema] of Object.entries(added ?? {})) schemas[name] ??= schema
  }
  return copy
}
