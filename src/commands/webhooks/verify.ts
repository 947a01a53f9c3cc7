import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {nowSeconds, readVerifyInputs, TOLERANCE_SECONDS, verifyDelivery} from '../../areas/webhooks/verify.js'
import {SIGNING_WORDS} from '../../areas/webhooks/signing.js'

export default class WebhooksVerify extends BaseCommand {
  static override summary = "Check a webhook delivery's signature against your endpoint's secret."
  static override description =
    `Checks the signature of a delivery: the raw body (--body FILE, or - for stdin), its bytes exactly as received, and its webhook-id, webhook-timestamp and webhook-signature headers (--id, --timestamp, --signature, or --headers FILE with "name: value" lines). The secret comes from TILL_WEBHOOK_SECRET or stdin with --secret-stdin, never from an argument. The timestamp must be within ${TOLERANCE_SECONDS} s of now.
Both ways the service signs are tried, as its SDK does: legacy (the HMAC key is the UTF-8 bytes of the whole whsec_... secret), then standard (Standard Webhooks: the key is the base64 decoding of the part after whsec_). An endpoint says which it uses (uses_standard_webhook_signature; till webhooks endpoints get shows it as Signing): secrets the service made on or after 2026-09-08 sign the standard way, older ones and ones given by the merchant the legacy way. In your receiver, give a stock Standard Webhooks library the secret as it is for a standard endpoint; for a legacy one, give it the base64 of the whole secret (or use the service's SDK, which tries both).
Exits 0 when the delivery is genuine (prints "valid", the event type and the way that matched on stderr), 1 when it is not, with one line saying why: bad signature, timestamp too old or too new, or a missing header.`
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'A saved delivery, secret from the environment',
      command: 'TILL_WEBHOOK_SECRET=whsec_... <%= config.bin %> <%= command.id %> --body body.json --headers headers.txt',
    },
    {
      description: 'Headers given one by one, body from stdin',
      command: '<%= config.bin %> <%= command.id %> --body - --id "$WEBHOOK_ID" --timestamp "$WEBHOOK_TIMESTAMP" --signature "$WEBHOOK_SIGNATURE" < body.json',
    },
    {
      description: 'Secret from a password manager',
      command: 'pass till/webhook-secret | <%= config.bin %> <%= command.id %> --secret-stdin --body body.json --headers headers.txt --json',
    },
  ]

  static override flags = {
    body: Flags.string({description: 'File holding the raw request body exactly as received, or - for stdin.', required: true}),
    headers: Flags.string({description: 'File of request headers, "name: value" lines (or a JSON object), or - for stdin.'}),
    id: Flags.string({description: 'The webhook-id header.'}),
    timestamp: Flags.string({description: 'The webhook-timestamp header (unix seconds).'}),
    signature: Flags.string({description: 'The webhook-signature header ("v1,<base64>", several separated by spaces).'}),
    'secret-stdin': Flags.boolean({description: 'Read the secret (whsec_...) from stdin instead of TILL_WEBHOOK_SECRET.'}),
    'ignore-timestamp': Flags.boolean({description: `Accept a timestamp more than ${TOLERANCE_SECONDS} s from now (e.g. to check an old saved delivery).`}),
    now: Flags.string({description: 'Check the timestamp against this time (unix seconds or ISO date) instead of the clock.', hidden: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(WebhooksVerify)
    const now = nowSeconds(flags.now)
    const ask = this.prompter.interactive
      ? async () => (await import('@inquirer/prompts')).password({message: 'Webhook secret (whsec_...)', mask: true})
      : undefined
    const {body, headers, secret} = await readVerifyInputs(flags, process.env, ask)
    const verdict = verifyDelivery(body, headers, secret, {nowSeconds: now, ignoreTimestamp: flags['ignore-timestamp']})
    if (this.jsonEnabled()) {
      const result = verdict.valid
        ? {
            valid: true,
            type: verdict.type,
            webhook_id: verdict.webhookId,
            timestamp: new Date(verdict.timestamp * 1000).toISOString(),
            key: verdict.key,
            signing: verdict.signing,
          }
        : verdict
      this.ctx.io.stdout.write(`${JSON.stringify(result, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n`)
    }
    if (!verdict.valid) throw new TillError(`invalid: ${verdict.reason}`, ExitCode.error)
    const sent = new Date(verdict.timestamp * 1000).toISOString()
    this.ctx.note(`valid: ${verdict.type ?? 'event of unknown type'} (webhook-id ${verdict.webhookId}, sent ${sent})`)
    this.ctx.note(`signed ${SIGNING_WORDS[verdict.signing]}`)
  }
}
