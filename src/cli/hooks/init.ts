// `till --version` also names the API version requests are pinned to (Polar-Version).
import type {Hook} from '@oclif/core'

import {API_VERSION} from '../../client/version.js'

const hook: Hook.Init = async function (options) {
  if (process.argv[2] !== '--version') return
  // oclif prints `config.userAgent` for --version; the type marks it read-only, the object does not
  const config = options.config as {userAgent: string}
  config.userAgent = `${config.userAgent} polar-api/${API_VERSION}`
}

export default hook
