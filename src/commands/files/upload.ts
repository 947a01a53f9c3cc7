import {Args, Flags} from '@oclif/core'

import {DEFAULT_PART_SIZE, FILE_SERVICES, uploadFile} from '../../client/resources/files.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {uploadProgress} from '../../areas/sales/progress.js'
import {checkReadableFile} from '../../client/fs-problem.js'
import {usageError} from '../../client/till-error.js'
import {formatBytes} from '../../cli/output/format.js'

export default class FilesUpload extends BaseCommand {
  static override summary = 'Upload a file (for downloadable benefits, product media or the avatar), with a progress bar and checksums.'
  static override description =
    `Runs the service's upload flow: declares the file and its parts, sends each part to the storage URL the service returns (without your token), then marks the file uploaded. The SHA-256 of every part and of the whole file is computed locally and checked against what the storage received; a mismatch fails the upload (exit 1).

The progress bar shows on a terminal (stderr); the file object goes to stdout. Attach it to a downloadable benefit with: till benefits update BENEFIT --properties '{"files": ["FILE_ID"]}'.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> ./dist/handbook.pdf',
    {description: 'Another name and a version, as JSON', command: '<%= config.bin %> <%= command.id %> ./build/app.zip --name "App 2.1" --version 2.1 --json'},
  ]

  static override args = {path: Args.string({description: 'File to upload.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    name: Flags.string({description: 'Name shown to customers (default: the file name).'}),
    'mime-type': Flags.string({description: 'MIME type (default: from the extension).'}),
    service: Flags.option({options: FILE_SERVICES, description: 'What the file is for.', default: 'downloadable'})(),
    version: Flags.string({description: 'A version label.'}),
    'part-size': Flags.integer({description: `Bytes per part (default ${DEFAULT_PART_SIZE}, 5 MiB).`, min: 1024, hidden: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(FilesUpload)
    const size = checkReadableFile(args.path, 'give the path of a file to upload')!
    if (flags['mime-type'] && !/^\S+\/\S+$/.test(flags['mime-type']))
      throw usageError(`--mime-type must look like type/subtype, e.g. application/pdf, not "${flags['mime-type']}"`)
    const client = await this.ctx.client()
    const progress = await uploadProgress(this.ctx.io, 'Uploading', size)
    let file
    try {
      file = await uploadFile(client, args.path, {
        name: flags.name,
        mimeType: flags['mime-type'],
        service: flags.service,
        version: flags.version,
        partSize: flags['part-size'],
        onProgress: (sent, total) => progress.update(sent, total),
      })
    } finally {
      progress.stop()
    }
    await this.writeCreated('files', file, flags)
    this.ctx.note(`Uploaded ${args.path} as file ${file.id} (${formatBytes(size)}, SHA-256 checked).`)
  }
}
