// What every `till migrate <source>` command shares: its flags, reading the source's API key (an
// environment variable, a file named by a flag, or a hidden prompt on a terminal: never an argument, never
// echoed, logged or in --debug), the progress on a terminal, and the run. A source's command is a thin
// class naming its source (src/commands/migrate/stripe.ts).
import {readFileSync} from 'node:fs'

import {Flags} from '@oclif/core'

import {fsError} from '../../client/fs-problem.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {terminalText} from '../../cli/output/format.js'
import {BaseCommand} from '../command.js'
import {reportText} from './convert.js'
import type {ExternalIdMode} from './convert-others.js'
import type {Source} from './model.js'
import {migrationProgress} from './progress.js'
import {FILES, runMigration} from './run.js'

export interface SourceSpec {
  /** `Stripe` */
  label: string
  /** The environment variable of the key: `STRIPE_API_KEY`. */
  keyEnv: string
  /** What kind of key to give, for the hints. */
  keyKind: string
  /** The source read with `access`; closed when the run ends. */
  make(access: SourceAccess): Source & {close(): Promise<void>}
}

/** How a source is read: its key (and where it came from, for the hints), its API, the client's settings. */
export interface SourceAccess {
  key: string
  /** Where the key came from, as a hint names it: `STRIPE_API_KEY`, `the key in FILE (--api-key-file)`. */
  keyName: string
  /** --api-base (a test server), else the source's own API. */
  base: string | undefined
  /** --debug's trace of each request. */
  debug: (line: string) => void
  /** TILL_REQUEST_DEADLINE, else the client's default. */
  deadlineMs: number | undefined
}

/** The flags of every migrate command (the key's variable named in the help). */
export const migrateFlags = (spec: Pick<SourceSpec, 'label' | 'keyEnv'>) => ({
  out: Flags.string({description: 'Folder to write catalog.yaml, customers.jsonl and precheck.json into (made if missing).', required: true}),
  'external-id': Flags.string({
    description: "What each customer's external_id is: the source's customer id, the e-mail address, or none.",
    options: ['source-id', 'email', 'none'],
    default: 'source-id',
  }),
  map: Flags.string({
    description: 'SOURCE_ID=POLAR_ID: the target product a source product stands for, where its name is taken without a unique match (repeatable).',
    multiple: true,
  }),
  'api-key-file': Flags.string({description: `A file holding the ${spec.label} API key (else $${spec.keyEnv}, else a hidden prompt on a terminal).`}),
  'no-target': Flags.boolean({description: "Do not read the target profile's catalog: map onto nothing (every product is new)."}),
  'api-base': Flags.string({description: `The ${spec.label} API's base URL (a test server).`, hidden: true}),
})

export abstract class MigrateCommand extends BaseCommand {
  static override enableJsonFlag = true

  protected async migrate(
    spec: SourceSpec,
    flags: {out: string; 'external-id': string; map?: string[]; 'api-key-file'?: string; 'no-target': boolean; 'api-base'?: string},
    /** The key, where the command has one of its own (a demo source): none is asked for. */
    givenKey?: string,
  ): Promise<void> {
    const maps = new Map<string, string>()
    for (const m of flags.map ?? []) {
      const match = /^([^=\s]+)=([^=\s]+)$/.exec(m)
      if (!match) throw usageError(`--map ${m}: give SOURCE_ID=POLAR_ID`, 'e.g. --map prod_abc=8f2c…, the ids the precheck names')
      maps.set(match[1]!, match[2]!)
    }
    const {key, keyName} = givenKey !== undefined ? {key: givenKey, keyName: 'the demo key'} : await this.sourceKey(spec, flags['api-key-file'])
    const source = spec.make({key, keyName, base: flags['api-base'], debug: (line) => this.ctx.debug(line), deadlineMs: this.ctx.requestDeadlineMs})
    const progress = await migrationProgress(this.ctx.io.stderr as NodeJS.WriteStream, this.ctx.io.stderrIsTTY)
    let report
    try {
      report = await runMigration({
        source,
        out: flags.out,
        externalId: flags['external-id'] as ExternalIdMode,
        maps,
        target: flags['no-target'] ? null : () => this.ctx.client(),
        progress: progress.update,
      })
    } finally {
      progress.stop()
      await source.close()
    }
    if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    // on a terminal, what the source named is escaped; piped, the bytes as they are
    else this.ctx.io.stdout.write(reportText(report, this.ctx.io.stdoutIsTTY ? terminalText : undefined))
    const at = (name: string) => `${flags.out.replace(/\/+$/, '')}/${name}`
    this.ctx.note(
      `${report.demo ? 'Demo data, not your account. ' : ''}Wrote ${at(FILES.catalog)}, ${at(FILES.customers)} and ${at(FILES.precheck)}. Next: till catalog plan ${at(FILES.catalog)}, till catalog apply ${at(FILES.catalog)}, till customers import ${at(FILES.customers)}`,
    )
  }

  /** The key: the environment variable, the file, or a hidden prompt on a terminal; and where it came from. */
  private async sourceKey(spec: SourceSpec, file: string | undefined): Promise<{key: string; keyName: string}> {
    let key: string | undefined
    let keyName = spec.keyEnv
    if (file !== undefined) {
      keyName = `the key in ${file} (--api-key-file)`
      try {
        key = readFileSync(file, 'utf8').trim()
      } catch (error) {
        throw fsError(
          error,
          'read the API key file',
          file,
          ExitCode.usage,
          `give --api-key-file a file holding the ${spec.label} API key, or set ${spec.keyEnv}`,
        )
      }
      if (key === '') throw usageError(`the API key file ${file} is empty`)
    } else if (process.env[spec.keyEnv]?.trim()) {
      key = process.env[spec.keyEnv]!.trim()
    } else if (this.prompter.interactive) {
      keyName = 'the key you entered'
      const {password} = await import('@inquirer/prompts')
      key = (await password({message: `${spec.label} API key (${spec.keyKind}):`, mask: true})).trim()
      if (key === '') throw usageError('no API key was entered')
    } else {
      throw new TillError(
        `a ${spec.label} API key is needed and there is no terminal to ask for it`,
        ExitCode.usage,
        `set ${spec.keyEnv}, or give --api-key-file FILE (${spec.keyKind}; keys are never taken as arguments)`,
      )
    }
    if (/\s/.test(key)) throw usageError('the API key contains spaces or line breaks; give only the key')
    return {key, keyName}
  }
}
