// Generating an order's invoice as one input of a bulk job: an order that has its invoice already is in
// the state the job asks for, so it is "already done" (a resumed job meets the orders a stopped run did),
// not a failure. Alone (`till orders invoice generate ID`) the service's refusal is reported as it is.
import {currentAttempt, markAlreadyDone} from '../../client/attempt.js'
import {ApiError} from '../../client/errors.js'

/**
 * `generating` when the service took the request now, `generated` when the order had its invoice already
 * (in a bulk job only). An order a stopped run may have sent is read first (`read`), and not sent again
 * when its invoice exists.
 */
export async function generateOnce(
  orderId: string,
  generate: () => Promise<unknown>,
  read: () => Promise<{is_invoice_generated?: boolean}>,
): Promise<'generating' | 'generated'> {
  const attempt = currentAttempt()
  if (attempt?.earlier && (await read()).is_invoice_generated === true) {
    markAlreadyDone(`order ${orderId} has its invoice (an earlier run of this job generated it)`)
    return 'generated'
  }
  try {
    await generate()
    return 'generating'
  } catch (error) {
    if (attempt === undefined || !(error instanceof ApiError) || error.code !== 'InvoiceAlreadyExists') throw error
    markAlreadyDone(`order ${orderId} already has an invoice`)
    return 'generated'
  }
}
