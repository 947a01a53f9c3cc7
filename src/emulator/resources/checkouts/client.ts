// The public client-secret side of a checkout: the client API routes and the checkout page.
import {ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {confirmedCheckout, publicCheckout} from './public.js'
import {parse} from '../../core/validate.js'
import {confirm} from './confirm.js'
import {checkoutConfirm, findBySecret, publicUpdate, saveUpdate, statusOf} from './rules.js'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{color:#666}label{display:block;margin:.6rem 0}
input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1.2rem}#error{color:#b00020}</style>
</head><body>${body}</body></html>`
}

const CONFIRM_SCRIPT = `document.getElementById('confirm').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = new FormData(event.target)
  const body = {customer_email: form.get('email'), customer_name: form.get('name') || null}
  if (form.get('country')) body.customer_billing_address = {country: String(form.get('country')).toUpperCase()}
  const res = await fetch(event.target.dataset.action, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
  if (res.ok) location.reload()
  else document.getElementById('error').textContent = JSON.stringify((await res.json()).detail)
})`

function checkoutPage(ctx: Ctx): Reply {
  const k = ctx.store.all('checkouts').find((c) => c.client_secret === ctx.params.client_secret)
  const html = (status: number, data: string): Reply => ({status, raw: {contentType: 'text/html; charset=utf-8', data}})
  if (!k) return html(404, page('Checkout not found', '<h1>Checkout not found</h1>'))
  const product = ctx.store.get('products', k.product_id)
  const status = statusOf(ctx, k)
  const total = k.amount - k.discount_amount + (k.tax_amount ?? 0)
  const org = ctx.store.data.organization.name
  const form =
    status !== 'open'
      ? ''
      : `<form id="confirm" data-action="/v1/checkouts/client/${encodeURIComponent(k.client_secret)}/confirm">
<label>Email <input name="email" type="email" required value="${escapeHtml(k.customer_email ?? '')}"></label>
<label>Name <input name="name" value="${escapeHtml(k.customer_name ?? '')}"></label>
<label>Country (2 letters) <input name="country" maxlength="2" value="${escapeHtml(k.customer_billing_address?.country ?? '')}"></label>
<button type="submit">Pay ${escapeHtml(money(total, k.currency))}</button><p id="error"></p></form>
<script>${CONFIRM_SCRIPT}</script>`
  return html(
    200,
    page(
      `Checkout - ${org}`,
      `<h1>${escapeHtml(org)}</h1>
<dl><dt>Product</dt><dd>${escapeHtml(product?.name ?? '(deleted product)')}</dd>
<dt>Amount</dt><dd>${escapeHtml(money(total, k.currency))}</dd>
<dt>Status</dt><dd id="status">${escapeHtml(status)}</dd></dl>${form}`,
    ),
  )
}

export function registerClient(r: Router): void {
  r.get('/checkouts/client/:client_secret', 'none', (ctx) => ok(publicCheckout(ctx.view, findBySecret(ctx, ctx.params.client_secret!))))

  r.patch('/checkouts/client/:client_secret', 'none', (ctx) => {
    const secret = ctx.params.client_secret!
    const input = parse(publicUpdate, ctx.body)
    return ok(
      publicCheckout(
        ctx.view,
        saveUpdate(ctx, () => findBySecret(ctx, secret), input),
      ),
    )
  })

  r.post('/checkouts/client/:client_secret/confirm', 'none', (ctx) => {
    const input = parse(checkoutConfirm, ctx.body)
    const secret = ctx.params.client_secret!
    const done = confirm(ctx, secret, input)
    return ok(confirmedCheckout(ctx.view, done.checkout, done.sessionToken))
  })
}

export function registerPage(r: Router): void {
  r.addAbsolute('GET', '/checkout/:client_secret', 'none', checkoutPage)
  r.addAbsolute('GET', '/checkout/:client_secret/confirmation', 'none', checkoutPage)
}
