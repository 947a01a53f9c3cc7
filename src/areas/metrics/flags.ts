// Flags shared by `till metrics` and `till report`, and the metric names they accept.
import {Flags} from '@oclif/core'

import {METRIC_INTERVALS} from '../../client/resources/metrics.js'

export const rangeFlags = {
  start: Flags.string({description: 'First day, YYYY-MM-DD (inclusive), or today, yesterday, a time ago (30d, 2w, 3m).'}),
  end: Flags.string({description: 'Last day, YYYY-MM-DD (inclusive; default today).'}),
  last: Flags.string({description: 'The last N days, weeks, months or years up to today: 30d, 12w, 12m, 2y (default 12m).'}),
  interval: Flags.option({options: METRIC_INTERVALS, description: 'One period per day, week, month or year (default: suits the range).'})(),
  timezone: Flags.string({description: 'Time zone of the days and periods, an IANA name (default UTC).'}),
  product: Flags.string({description: 'Only this product (repeatable).', multiple: true}),
  'billing-type': Flags.option({options: ['one_time', 'recurring'] as const, description: 'Only one-time purchases or only subscriptions.'})(),
}

/** Short names people type for the service's metric slugs. */
export const METRIC_ALIASES: Record<string, string> = {
  mrr: 'monthly_recurring_revenue',
  arr: 'annual_recurring_revenue',
  aov: 'average_order_value',
  arpu: 'average_revenue_per_user',
  active: 'active_subscriptions',
  conversion: 'checkouts_conversion',
  churn: 'churn_rate',
}

export const DEFAULT_METRICS = ['revenue', 'orders', 'monthly_recurring_revenue', 'active_subscriptions']

/** The slugs asked for (aliases resolved, duplicates dropped), or the defaults. */
export const metricSlugs = (given: string[] | undefined): string[] =>
  given && given.length > 0
    ? [
        ...new Set(
          given
            .flatMap((g) => g.split(','))
            .map((g) => METRIC_ALIASES[g.trim()] ?? g.trim())
            .filter(Boolean),
        ),
      ]
    : DEFAULT_METRICS
