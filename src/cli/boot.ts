// What bin/run.js needs before the bundle: the settings check and the API version (for `till --version`,
// answered without the bundle), and the loader of the bundle with its compile cache. The build bundles it
// on its own into dist/bundle/cli/boot.cjs: CommonJS, as bin/run.js is, since an ES module entry costs
// every run Node's ES module loader. And the keyring read a command will make, started before
// the bundle loads (config/keyring-prefetch.ts).
export {API_VERSION} from '../client/version.js'
export {cacheKind, requireWithCache, runLabel} from './compile-cache.js'
export {readKeyringAhead} from './config/keyring-prefetch.js'
export {settingsProblem} from './settings.js'
