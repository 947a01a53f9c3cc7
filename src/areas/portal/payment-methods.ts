// What the payment-method commands share: a card setup that waits for the customer's action.
import type {Context} from '../../cli/context.js'

/** The setup intent id in a setup's client secret (`seti_X_secret_Y` -> `seti_X`). */
export const setupIntentOf = (clientSecret: string) => clientSecret.replace(/_secret_.*$/, '')

/** Prints a setup that needs the customer's action: the client secret on stdout, what to do next on stderr. */
export async function pendingSetup(ctx: Context, clientSecret: string, json: boolean): Promise<void> {
  const setupIntentId = setupIntentOf(clientSecret)
  if (json) ctx.io.stdout.write(`${JSON.stringify({status: 'requires_action', client_secret: clientSecret, setup_intent_id: setupIntentId})}\n`)
  else ctx.io.stdout.write(`${clientSecret}\n`)
  ctx.note(`The card needs the customer's action (3-D Secure) before it is saved; once done: till portal payment-methods confirm ${setupIntentId}`)
}
