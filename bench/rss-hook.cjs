// Preloaded with --require by the benchmark: reports the process's peak RSS (KiB) and its CPU time (user and
// system, microseconds) on stderr at exit. A CommonJS preload, because one loaded with --import brings Node's
// ES module loader into the process it measures: 2.8 MiB of a one-page command's peak, which GNU time's %M,
// measuring from outside, does not see.
'use strict'
process.on('exit', () => {
  const usage = process.resourceUsage()
  require('node:fs').writeSync(2, `\ntill-bench-maxrss=${usage.maxRSS}\ntill-bench-cpu=${usage.userCPUTime + usage.systemCPUTime}\n`)
})
