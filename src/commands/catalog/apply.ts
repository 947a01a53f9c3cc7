import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {applyPlan} from '../../areas/catalog-file/apply.js'
import {countsText, doneLine, notDoneLines, planText, stepsText, targetText, type TextOptions} from '../../areas/catalog-file/render.js'
import {forTerminal} from '../../cli/output/format.js'
import {lockEnvironment, planFile, twinLines} from '../../areas/catalog-file/session.js'
import {toTillError} from '../../client/errors.js'
import {TillError, usageError} from '../../client/till-error.js'

export default class CatalogApply extends BaseCommand {
  static override summary = 'Make an environment match a catalog file.'
  static override description =
    `Plans as "till catalog plan" does, then creates and updates in dependency order (meters, custom fields and benefits before the products that use them, products before the discounts and checkout links restricted to them), within the rate budget. Objects are matched by key, so applying the same file again changes nothing. Nothing is deleted: what the environment has and the file does not is reported, and with --prune meters and products are archived and webhook endpoints disabled (the service cannot archive a custom field, a benefit, a discount or a checkout link: those are kept). A change the service cannot make (a one-time product becoming recurring, a discount's type) refuses the whole file before anything is sent. A webhook endpoint created gets a new signing secret, which is not printed: stderr says how to get one.

Production, and any --prune that archives, is confirmed on a terminal and needs --yes otherwise. The first refusal stops the run with what was done and what was not; running apply again finishes the work.`
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'Recreate the sandbox catalog in production',
      command: '<%= config.bin %> catalog pull -p sandbox --out catalog.yaml && <%= config.bin %> <%= command.id %> catalog.yaml -p production',
    },
    {
      description: 'Apply in CI, archiving products removed from the file',
      command: '<%= config.bin %> <%= command.id %> catalog.yaml -p production --prune --yes',
    },
  ]

  static override args = {file: Args.string({description: 'Catalog file (from till catalog pull), or - for stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    prune: Flags.boolean({description: 'Archive what the environment has and the file does not (meters, products; webhook endpoints are disabled).'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal in production or with --prune).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CatalogApply)
    const p = await this.ctx.profileWithCredential() // its token (from the keyring too) names the lock
    // Planned and applied holding the environment's lock: a second apply plans after the first is done.
    const lock = await lockEnvironment(this.ctx.configDir, p, (flags['max-wait'] ?? 120) * 1000, (line) => this.ctx.note(line))
    try {
      await this.apply(args.file, flags)
    } finally {
      lock.release()
    }
  }

  /** Plan text on stderr: escaped and within its width on a terminal. */
  private stderrText(): TextOptions {
    const io = this.ctx.io
    return io.stderrIsTTY ? {width: io.stderr.columns, tty: true} : {}
  }

  private async apply(file: string, flags: {prune: boolean; yes: boolean}): Promise<void> {
    const {catalog, plan, keys} = await planFile(
      () => this.ctx.client(),
      file,
      flags.prune,
      (line) => this.ctx.debug(line),
    )
    for (const line of twinLines(keys)) this.ctx.note(`Warning: ${line}`)
    const p = this.ctx.profile
    const target = {profile: p.name, environment: p.environment, baseUrl: p.baseUrl}
    const blocked = plan.steps.filter((s) => s.blocked)
    if (blocked.length > 0) {
      this.ctx.io.stderr.write(stepsText(blocked, this.stderrText()))
      throw usageError(
        `${blocked.length === 1 ? 'a change' : `${blocked.length} changes`} in the file cannot be made by the service; nothing was changed`,
        'see "cannot apply" above',
      )
    }
    if (!plan.pending) {
      this.ctx.note(`Nothing to do: ${targetText(target)} matches the file.`)
      if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify({done: [], failed: null, not_done: []}, null, 2)}\n`)
      return
    }
    if (p.environment === 'production' || plan.counts.archive > 0) {
      this.ctx.io.stderr.write(planText(plan, target, this.stderrText()))
      await this.confirmAction(`apply ${file} (${countsText(plan)})`, flags.yes)
    }
    const json = this.jsonEnabled()
    const result = await applyPlan(await this.ctx.client(), catalog, plan.steps, keys, (d) => {
      if (!json) this.ctx.io.stdout.write(`${forTerminal(doneLine(d), this.ctx.io.stdoutIsTTY)}\n`)
      if (d.note) this.ctx.note(d.note)
    })
    if (json) {
      const failed = result.failed && {
        kind: result.failed.step.kind,
        key: result.failed.step.key,
        action: result.failed.step.action,
        error: toTillError(result.failed.error, this.errorContext()).message,
      }
      this.ctx.io.stdout.write(
        `${JSON.stringify({done: result.done, failed: failed ?? null, not_done: result.notDone.map((s) => ({kind: s.kind, key: s.key, action: s.action}))}, null, 2)}\n`,
      )
    }
    if (!result.failed) {
      this.ctx.note(`Applied to ${targetText(target)}: ${result.done.length} changes.`)
      return
    }
    const {step, error} = result.failed
    const cause = toTillError(error, this.errorContext())
    if (!json) for (const line of notDoneLines(result)) this.ctx.io.stdout.write(`${forTerminal(line, this.ctx.io.stdoutIsTTY)}\n`)
    throw new TillError(
      `apply stopped at ${step.action} ${step.noun} ${step.key}: ${cause.message}\n${result.done.length} of ${result.done.length + 1 + result.notDone.length} changes were made; ${result.notDone.length + 1} were not`,
      cause.exitCode,
      'fix the cause and run the same apply again: what was done is matched by key and not done twice',
    )
  }
}
