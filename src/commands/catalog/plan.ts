import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {planJson, planJsonPieces, planPieces} from '../../areas/catalog-file/render.js'
import {showPlan} from '../../areas/catalog-file/session.js'
import {ExitCode} from '../../client/till-error.js'
import {jsonFor} from '../../cli/output/format.js'
import {sinkFor} from '../../cli/output/sink.js'

export default class CatalogPlan extends BaseCommand {
  static override summary = `Show what applying a catalog file to an environment would change; exits ${ExitCode.changesPending} when changes are pending.`
  static override description =
    `Reads the environment and prints a diff: + for an object to create, ~ for one to update (with each changed field, money with its currency), - for one to archive (--prune), and ! for one the environment has but the file does not (kept). Where the service cannot change a field in place (a price's amount: prices are replaced, not edited; a meter's filter once it counts events) the plan says what apply will do instead. Nothing is written.

Exit codes: 0 when there is nothing to do, ${ExitCode.changesPending} when changes are pending (so that CI can gate on it), 2 for a file with problems.`
  static override enableJsonFlag = true
  static override examples = [
    {description: 'What would change in production', command: '<%= config.bin %> <%= command.id %> catalog.yaml -p production'},
    {
      description: 'Fail a CI job when production has drifted from the file, or when the plan cannot be made (any exit but 0)',
      command: '<%= config.bin %> <%= command.id %> catalog.yaml -p production',
    },
    {
      description: 'Save the plan in CI, failing on errors (2, 4, 6...) but not on pending changes (10)',
      command: '<%= config.bin %> <%= command.id %> catalog.yaml -p production --json > plan.json || [ $? -eq 10 ]',
    },
  ]

  static override args = {file: Args.string({description: 'Catalog file (from till catalog pull), or - for stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    prune: Flags.boolean({description: 'Plan to archive what the environment has and the file does not (meters, products; webhook endpoints are disabled).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CatalogPlan)
    const {plan, twins} = await showPlan(
      () => this.ctx.client(),
      args.file,
      flags.prune,
      (line) => this.ctx.debug(line),
    )
    for (const line of twins) this.ctx.note(`Warning: ${line}`)
    const p = this.ctx.profile
    const target = {profile: p.name, environment: p.environment, baseUrl: p.baseUrl}
    const io = this.ctx.io
    // a step at a time: the plan of a catalog of 60,000 products is tens of MiB of text
    if (this.jsonEnabled() && io.stdoutIsTTY) io.stdout.write(`${jsonFor(JSON.stringify(planJson(plan, target), null, 2), true)}\n`)
    else if (this.jsonEnabled()) await sinkFor(io.stdout).writeAll(planJsonPieces(plan, target))
    else await sinkFor(io.stdout).writeAll(planPieces(plan, target, io.stdoutIsTTY ? {width: io.stdout.columns, tty: true} : {}))
    if (plan.steps.some((s) => s.blocked))
      this.ctx.note('Some changes cannot be applied as they are (see "cannot apply"); apply refuses the file until they are resolved.')
    if (plan.pending) this.exit(ExitCode.changesPending)
  }
}
