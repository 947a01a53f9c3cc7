// Loaded with --import by the benchmark: reports the process's peak RSS (KiB) on stderr at exit.
import {writeSync} from 'node:fs'

process.on('exit', () => writeSync(2, `\ntill-bench-maxrss=${process.resourceUsage().maxRSS}\n`))
