// `till report --html`: one self-contained page (uPlot and its stylesheet inlined from the installed
// package, the data embedded as JSON), readable offline by people who do not use a command line.
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'

import type {MetricsResponse} from '../../client/resources/metrics.js'
import {partialNote} from './chart.js'
import {totalKind} from './definitions.js'
import {partialEnds, type MetricsRange} from './range.js'

export interface TopProduct {
  id: string
  name: string
  /** The currency of its orders: a product sold in two currencies has a row in each. */
  currency: string
  revenue: number
  orders: number
}

export interface RefundPoint {
  timestamp: string
  amount: number
  count: number
}

export interface ReportData {
  organization: string
  currency: string
  generatedAt: string
  range: MetricsRange
  metrics: MetricsResponse
  previous: MetricsResponse
  topProducts: TopProduct[]
  /** Currencies other than `currency` that orders in the range were paid in: the service's metrics add them up unconverted. */
  otherCurrencies: string[]
  refunds: RefundPoint[]
  /** Refunded in other currencies than `currency`, minor units per currency (not in `refunds` amounts). */
  otherRefunds: Record<string, number>
  /** A saved dashboard to render: its name heads the page and its metrics, in its order, are charted. */
  dashboard?: {name: string; metrics: string[]}
}

/** The metrics the report charts, in order. */
export const REPORT_METRICS = [
  'revenue',
  'net_revenue',
  'orders',
  'monthly_recurring_revenue',
  'active_subscriptions',
  'new_subscriptions',
  'churned_subscriptions',
  'average_order_value',
] as const

const require = createRequire(import.meta.url)
const asset = (path: string) => readFileSync(require.resolve(path), 'utf8')

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** JSON that cannot end the script element it sits in. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

// Runs in the page: builds one uPlot chart per metric, the refunds bars and the top products table.
const PAGE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  function moneyIn(code, v) {
    var f = new Intl.NumberFormat('en-US', {style: 'currency', currency: code.toUpperCase()});
    return f.format(v / Math.pow(10, f.resolvedOptions().maximumFractionDigits));
  }
  function fmt(v, type) {
    if (type === 'currency' || type === 'currency_sub_cent') return moneyIn(data.currency, v);
    if (type === 'percentage') return (v * 100).toFixed(1) + '%';
    return Math.round(v).toLocaleString('en-US');
  }
  function change(now, before) {
    if (!before) return '';
    var pct = (now - before) / Math.abs(before) * 100;
    return (pct >= 0 ? '+' : '') + pct.toFixed(1) + '% vs previous period';
  }
  var xs = data.metrics.periods.map(function (p) { return Date.parse(p.timestamp) / 1000; });
  var halfPeriod = xs.length > 1 ? (xs[xs.length - 1] - xs[0]) / (xs.length - 1) / 2 : 43200;
  var WHOLE = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000, 100000, 1000000];
  var KIND = {total: 'Total', latest: 'Latest', average: 'Average'};
  window.tillCharts = [];
  var grid = document.getElementById('charts');
  function chart(title, subtitle, type, values, bars) {
    var card = document.createElement('section');
    card.className = 'card';
    var h = document.createElement('h2');
    h.textContent = title;
    var s = document.createElement('p');
    s.className = 'sub';
    s.textContent = subtitle;
    var box = document.createElement('div');
    box.className = 'chart';
    card.appendChild(h); card.appendChild(s); card.appendChild(box);
    grid.appendChild(card);
    var opts = {
      width: Math.max(280, box.clientWidth || 520), height: 220,
      legend: {show: false},
      // bars stand on their periods: the x range reaches half a period past the first and the last, so that
      // neither end's bar is cut in half at the chart's edge
      scales: {x: bars ? {time: true, range: function (u, min, max) { return [min - halfPeriod, max + halfPeriod]; }} : {time: true}},
      // counts get whole-number ticks only; the labels drawn are kept on the chart (tillTicks) for tests
      axes: [{}, {size: 80, incrs: type === 'scalar' ? WHOLE : undefined,
        values: function (u, vals) { u.tillTicks = vals.map(function (v) { return fmt(v, type); }); return u.tillTicks; }}],
      series: [{}, {label: title, stroke: '#2563eb', width: 2, fill: 'rgba(37,99,235,0.12)',
        paths: bars ? uPlot.paths.bars({size: [0.6, 60]}) : undefined}],
    };
    var u = new uPlot(opts, [xs, values], box);
    u.tillTitle = title;
    window.tillCharts.push(u);
  }
  data.charted.forEach(function (slug) {
    var def = data.metrics.metrics[slug];
    if (!def) return;
    var total = data.metrics.totals[slug];
    chart(def.display_name, KIND[data.kinds[slug]] + ' ' + fmt(total, def.type) + ' ' + change(total, data.previous.totals[slug]), def.type,
      data.metrics.periods.map(function (p) { return p[slug] || 0; }), false);
  });
  var refundTotal = data.refunds.reduce(function (a, r) { return a + r.amount; }, 0);
  var refundCount = data.refunds.reduce(function (a, r) { return a + r.count; }, 0);
  var otherRefunds = Object.keys(data.otherRefunds).map(function (c) { return moneyIn(c, data.otherRefunds[c]); });
  chart('Refunds', refundCount + ' refunds, ' + fmt(refundTotal, 'currency') + (otherRefunds.length ? ' (and ' + otherRefunds.join(', ') + ', not charted)' : ''), 'currency', data.refunds.map(function (r) { return r.amount; }), true);
  var body = document.getElementById('top-products');
  data.topProducts.forEach(function (p, i) {
    var tr = document.createElement('tr');
    [String(i + 1), p.name, moneyIn(p.currency, p.revenue), String(p.orders)].forEach(function (text, j) {
      var td = document.createElement('td');
      td.textContent = text;
      if (j !== 1) td.className = 'num';
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
})();
`

const STYLE = `
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
header { padding: 24px 32px 8px; }
header h1 { margin: 0 0 4px; font-size: 24px; }
header p { margin: 0; color: #475569; }
main { padding: 16px 32px 32px; }
#charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 16px; }
.card { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 12px 16px; }
.card h2 { font-size: 16px; margin: 0; }
.sub { color: #475569; margin: 2px 0 8px; font-size: 13px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #e2e8f0; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
`

/** Orders in other currencies: the charts are the service's metrics, which add them up unconverted; the tables are per currency. */
function currencyNote(data: ReportData): string {
  if (data.otherCurrencies.length === 0) return ''
  const others = data.otherCurrencies.map((c) => c.toUpperCase()).join(', ')
  return `<p class="currencies">Some orders are in ${escapeHtml(others)}: the charts are the service's metrics, which add those amounts to ${escapeHtml(data.currency.toUpperCase())} as they are, unconverted. Top products and refunds are shown per currency.</p>`
}

/** The whole page. */
export function reportHtml(data: ReportData): string {
  const uplotJs = asset('uplot/dist/uPlot.iife.min.js')
  const uplotCss = asset('uplot/dist/uPlot.min.css')
  const charted = (data.dashboard?.metrics ?? REPORT_METRICS).filter((m) => m in data.metrics.metrics)
  const payload = {...data, charted, kinds: Object.fromEntries(charted.map((m) => [m, totalKind(m)]))}
  const partial = partialNote(data.metrics.periods, data.range, partialEnds(data.range))
  const range = `${data.range.startDate} to ${data.range.endDate} (${data.range.interval}ly, ${data.range.timezone})`.replace('dayly', 'daily')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.organization)}${data.dashboard ? ` (${escapeHtml(data.dashboard.name)})` : ''}: metrics ${escapeHtml(data.range.startDate)} to ${escapeHtml(data.range.endDate)}</title>
<style>${uplotCss}</style>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(data.organization)}</h1>
${data.dashboard ? `<h2 id="dashboard">${escapeHtml(data.dashboard.name)}</h2>` : ''}
<p>Metrics from ${escapeHtml(range)}. Amounts in ${escapeHtml(data.currency.toUpperCase())}. Generated ${escapeHtml(data.generatedAt)} by till.</p>
${currencyNote(data)}
${partial.length > 0 ? `<p class="partial">${escapeHtml(partial.join('; ').replace(/^\* partial/, 'Partial'))} (the range covers only part of ${partial.length > 1 ? 'them' : 'it'}).</p>` : ''}
</header>
<main>
<div id="charts"></div>
<h2>Top products by revenue</h2>
<table><thead><tr><th class="num">#</th><th>Product</th><th class="num">Revenue</th><th class="num">Orders</th></tr></thead><tbody id="top-products"></tbody></table>
</main>
<script id="report-data" type="application/json">${scriptJson(payload)}</script>
<script>${uplotJs}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`
}
