// GET /_emulator/logs?after=ID&wait=SECONDS&limit=N: the environment's request log (core/request-log.ts),
// oldest first, after the cursor `after`; with `wait`, held until a request after it is logged or the
// seconds pass (a long poll: `till emulator logs --follow`). Reading the log is not itself logged.
import {ok, type Ctx, type Handler} from '../../core/http.js'
import {REQUEST_LOG_SIZE} from '../../core/request-log.js'
import {parse} from '../../core/validate.js'
import {z} from '../../core/zod.js'

export const LOGS_PATH = '/logs'

const query = z.object({
  after: z.coerce.number().int().min(0).default(0),
  wait: z.coerce.number().min(0).max(60).default(0),
  limit: z.coerce.number().int().min(1).max(REQUEST_LOG_SIZE).default(REQUEST_LOG_SIZE),
})

export async function readLogs(ctx: Ctx): Promise<Awaited<ReturnType<Handler>>> {
  const {after, wait, limit} = parse(query, Object.fromEntries(ctx.query), ['query'])
  const log = ctx.env.requests
  // a cursor past the newest entry is an earlier run's: answered at once, with the newest id to start over from
  if (after <= log.lastId) await log.waitAfter(after, wait * 1000, ctx.signal)
  return ok({items: log.after(after, limit), last_id: log.lastId})
}
