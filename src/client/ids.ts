// Resource ids checked before any request: an empty id would turn `GET /products/{id}` into the list
// route, and a malformed UUID gets the same message the service's validation gives, without a round trip.
import {usageError} from './till-error.js'

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i

/** Throws a usage error unless `value` is a UUID; `what` names it ("product id"). */
export function checkUuid(value: string, what: string): string {
  const id = value.trim()
  if (id === '') throw usageError(`the ${what} is empty`, `give the ${what}, e.g. 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21`)
  if (!UUID.test(id))
    throw usageError(
      `${what} "${printable(id)}": Input should be a valid UUID, invalid character or length`,
      'ids look like 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21',
    )
  return id
}

/** A value shown in a message: control bytes escaped, long values cut. */
export function printable(value: string, max = 80): string {
  const shown = JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value).slice(1, -1)
  return shown
}
