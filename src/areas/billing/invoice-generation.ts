// Generating an order's invoice. The service answers 202 whether it starts a document or already has one
// for the order's billing details (it skips the work then), so the order is read first: one that has its
// invoice is in the state asked for, "already done" in a bulk job (a resumed job meets the orders a
// stopped run did) and said so alone, never counted as generated now. A 409 InvoiceAlreadyExists (an older
// answer of the service) means the same.
import {currentAttempt, markAlreadyDone} from '../../client/attempt.js'
import {ApiError} from '../../client/errors.js'

/**
 * `generating` when the service took the request now, `generated` when the order had its invoice already
 * (then nothing is sent).
 */
export async function generateOnce(
  orderId: string,
  generate: () => Promise<unknown>,
  read: () => Promise<{is_invoice_generated?: boolean}>,
): Promise<'generating' | 'generated'> {
  const attempt = currentAttempt()
  if ((await read()).is_invoice_generated === true) {
    markAlreadyDone(`order ${orderId} already has its invoice${attempt?.earlier ? ' (an earlier run of this job may have generated it)' : ''}`)
    return 'generated'
  }
  try {
    await generate()
    return 'generating'
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'InvoiceAlreadyExists') throw error
    markAlreadyDone(`order ${orderId} already has its invoice`)
    return 'generated'
  }
}
