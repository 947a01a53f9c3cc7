import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {nowSeconds, readVerifyInputs, TOLERANCE_SECONDS, verifyDelivery} from '../../areas/webhooks/verify.js'

export default class WebhooksVerify extends BaseCommand {
  static override summary = "Check a webhook delivery's signature against your endpoint's secret."
  static override description =
    `Checks the Standard Webhooks signature of a delivery: the raw body (--body FILE, or - for stdin) and its webhook-id, webhook-timestamp and webhook-signature headers (--id, --timestamp, --signature, or --headers FILE with "name: value" lines). The secret comes from TILL_WEBHOOK_SECRET or stdin with --secret-stdin, never from an argument. The timestamp must be within ${TOLERANCE_SECONDS} s of now.
Exits 0 when the delivery is genuine (prints "valid" and the event type on stderr), 1 when it is not, with one line saying why: bad signature, timestamp too old or too new, or a missing header.`
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
        ? {valid: true, type: verdict.type, webhook_id: verdict.webhookId, timestamp: new Date(verdict.timestamp * 1000).toISOString(), key: verdict.key}
        : verdict
      this.ctx.io.stdout.write(`${JSON.stringify(result, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n`)
    }
    if (!verdict.valid) throw new TillError(`invalid: ${verdict.reason}`, ExitCode.error)
    this.ctx.note(
      `valid: ${verdict.type ?? 'event of unknown type'} (webhook-id ${verdict.webhookId}, sent ${new Date(verdict.timestamp * 1000).toISOString()})`,
    )
  }
}
