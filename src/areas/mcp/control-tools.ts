// The emulator's control actions as tools of `till mcp` on a local profile: what `till emulator clock`,
// `pay`, `renew`, `dispute` do, through the same control routes (src/emulator/resources/control/routes.ts,
// src/emulator/resources/clock/routes.ts). No operation of the document has them: they are declared here.
import type {Annotations} from './tools.js'

export interface ControlTool {
  name: string
  description: string
  method: 'GET' | 'POST'
  /** The control route below /_emulator; `{id}` is the `id` argument. */
  route: string
  inputSchema: {type: 'object'; properties: Record<string, unknown>; required: string[]; additionalProperties: false}
  /** The arguments sent as the body (the rest name the route). */
  body: string[]
  confirm?: boolean
  annotations: Annotations
  /** How long the action may take (a walk of the clock answers once it is done). */
  deadlineMs?: number
}

const id = (what: string) => ({id: {type: 'string', description: `The ${what}'s id.`}})
const action = (idempotent: boolean, destructive = false): Annotations => ({
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
})
const input = (properties: Record<string, unknown>, required: string[] = []): ControlTool['inputSchema'] => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
})

export const CONTROL_TOOLS: readonly ControlTool[] = [
  {
    name: 'emulator_clock',
    description: "The emulator environment's time (its clock), and whether a walk is under way (till emulator clock).",
    method: 'GET',
    route: '/clock',
    inputSchema: input({}),
    body: [],
    annotations: {readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false},
  },
  {
    name: 'emulator_clock_advance',
    description:
      "Move the emulator environment's time forward (till emulator clock advance): renewals, payments " +
      'and their retries, trials, cancellations at the period end fall due on the way, each with its ' +
      'webhook events. Give duration (35d, 1mo, 1y), to (a date) or until_next (a webhook event type).',
    method: 'POST',
    route: '/clock/advance',
    inputSchema: input({
      duration: {type: 'string', description: 'How far: a number and a unit (s, m, h, d, w, mo, y), e.g. 35d or 1y2mo.'},
      to: {type: 'string', description: 'Move to this date or time (2027-06-30, 2027-06-30T12:00:00Z).'},
      until_next: {type: 'string', description: 'Move until the next webhook event of this type is sent (subscription.cycled).'},
      far: {type: 'boolean', description: 'Walk more than 10 years ahead.'},
    }),
    body: ['duration', 'to', 'until_next', 'far'],
    annotations: action(false),
    deadlineMs: 30 * 60_000,
  },
  {
    name: 'emulator_clock_reset',
    description: "Put the emulator environment's clock back on the wall clock (till emulator clock reset).",
    method: 'POST',
    route: '/clock/reset',
    inputSchema: input({}),
    body: [],
    annotations: action(true),
  },
  {
    name: 'emulator_pay',
    description: "Complete a pending order's payment now (till emulator pay): order.paid, benefit grants.",
    method: 'POST',
    route: '/orders/{id}/pay',
    inputSchema: input(id('pending order'), ['id']),
    body: [],
    annotations: action(false),
  },
  {
    name: 'emulator_renew',
    description: 'Renew a subscription now (till emulator renew): a new period and its order, paid after the payment delay.',
    method: 'POST',
    route: '/subscriptions/{id}/renew',
    inputSchema: input(id('subscription'), ['id']),
    body: [],
    annotations: action(false),
  },
  {
    name: 'emulator_fail_payment',
    description: 'Renew a subscription now with a payment that fails (till emulator renew --fail-payment): it goes past_due.',
    method: 'POST',
    route: '/subscriptions/{id}/fail-payment',
    inputSchema: input(id('subscription'), ['id']),
    body: [],
    annotations: action(false),
  },
  {
    name: 'emulator_dispute',
    description: "Open a dispute on a paid order's payment (till emulator dispute).",
    method: 'POST',
    route: '/orders/{id}/dispute',
    inputSchema: input({...id('paid order'), reason: {type: 'string', description: 'The reason (default fraudulent).'}}, ['id']),
    body: ['reason'],
    annotations: action(false),
  },
  {
    name: 'emulator_reset',
    description:
      'Remove every object of the emulator environment, keeping the organization and its tokens (the control route /_emulator/empty). ' +
      'Answers a dry run first; acts only when called again with its `confirm` token.',
    method: 'POST',
    route: '/empty',
    inputSchema: input({}),
    body: [],
    confirm: true,
    annotations: action(true, true),
  },
]
