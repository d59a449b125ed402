/**
 * A local stand-in for the few Stripe API endpoints we use, speaking Stripe's wire format
 * (form-encoded requests, JSON objects) so the official SDK can be pointed at it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeSubscription = {
  id: string;
  object: 'subscription';
  status: string;
  customer: string;
  cancel_at_period_end: boolean;
  canceled_at?: number | null;
  created: number;
  trial_start: number | null;
  trial_end: number | null;
  livemode: false;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Array<{ id: string; object: 'subscription_item'; current_period_end: number; price: { id: string; object: 'price'; recurring: { interval: 'month' | 'year' } } }> };
};

export type FakeStripe = {
  url: string;
  checkoutRequests: Array<Record<string, string>>;
  updateRequests: Array<{ id: string; body: Record<string, string> }>;
  /** Subscriptions cancelled at once (DELETE), in order. */
  cancelRequests: string[];
  subscriptions: Map<string, FakeSubscription>;
  /** Invoices by id, answered with their payments expanded (as `expand: ['payments.data.payment.payment_intent']` asks). */
  invoices: Map<string, Record<string, unknown>>;
  /** How many subscription searches reached the fake. */
  searches: number;
  failCheckout: boolean;
  /** Answers a cancellation with Stripe's 500 api_error (Stripe down). */
  failCancel: boolean;
  close(): Promise<void>;
};

export async function startFakeStripe(): Promise<FakeStripe> {
  const state = {
    checkoutRequests: [] as Array<Record<string, string>>,
    updateRequests: [] as Array<{ id: string; body: Record<string, string> }>,
    cancelRequests: [] as string[],
    subscriptions: new Map<string, FakeSubscription>(),
    invoices: new Map<string, Record<string, unknown>>(),
    searches: 0,
    failCheckout: false,
    failCancel: false,
  };
  let counter = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = Object.fromEntries(new URLSearchParams(raw));
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++counter}` });
        res.end(JSON.stringify(json));
      };
      if (!req.headers.authorization?.startsWith('Bearer sk_test_')) { send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }); return; }
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        state.checkoutRequests.push(body);
        if (state.failCheckout) { send(500, { error: { type: 'api_error', message: 'Something went wrong' } }); return; }
        const id = `cs_test_${++counter}`;
        send(200, { id, object: 'checkout.session', mode: 'subscription', url: `https://checkout.stripe.com/c/pay/${id}` }); return;
      }
      const invoiceMatch = /^\/v1\/invoices\/([\w]+)$/.exec(url.pathname);
      if (req.method === 'GET' && invoiceMatch) {
        const invoice = state.invoices.get(invoiceMatch[1]);
        if (!invoice) { send(404, { error: { type: 'invalid_request_error', message: `No such invoice: '${invoiceMatch[1]}'` } }); return; }
        send(200, invoice); return;
      }
      // Stripe's search language, as far as we use it: metadata['key']:'value'.
      if (req.method === 'GET' && url.pathname === '/v1/subscriptions/search') {
        state.searches += 1;
        const [, key = '', value = ''] = /^metadata\['(\w+)'\]:'([^']*)'$/.exec(url.searchParams.get('query') ?? '') ?? [];
        const data = [...state.subscriptions.values()].filter((s) => key && s.metadata[key] === value);
        send(200, { object: 'search_result', url: '/v1/subscriptions/search', has_more: false, next_page: null, data }); return;
      }
      const subMatch = /^\/v1\/subscriptions\/([\w]+)$/.exec(url.pathname);
      if (subMatch) {
        const sub = state.subscriptions.get(subMatch[1]);
        if (!sub) { send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such subscription: '${subMatch[1]}'` } }); return; }
        if (req.method === 'POST') {
          state.updateRequests.push({ id: sub.id, body });
          if ('cancel_at_period_end' in body) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
        }
        // Stripe's "cancel a subscription" (immediately): DELETE /v1/subscriptions/:id.
        if (req.method === 'DELETE') {
          if (state.failCancel) { send(500, { error: { type: 'api_error', message: 'Something went wrong' } }); return; }
          state.cancelRequests.push(sub.id);
          sub.status = 'canceled';
          sub.canceled_at = Math.floor(Date.now() / 1000);
        }
        send(200, sub); return;
      }
      if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        send(200, { id: `bps_${++counter}`, object: 'billing_portal.session', url: `https://billing.stripe.com/p/session/${body.customer}` }); return;
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A subscription as Stripe would hold it after checkout. */
export function fakeSubscription({ id, userId, status = 'trialing', plan = 'monthly', days = 7 }: { id: string; userId: string; status?: string; plan?: 'monthly' | 'yearly'; days?: number }): FakeSubscription {
  const now = Math.floor(Date.now() / 1000);
  return {
    id,
    object: 'subscription',
    status,
    customer: `cus_${id}`,
    cancel_at_period_end: false,
    created: now,
    trial_start: status === 'trialing' ? now : null,
    trial_end: status === 'trialing' ? now + days * 86400 : null,
    livemode: false,
    metadata: { userId, plan },
    items: {
      object: 'list',
      data: [{ id: `si_${id}`, object: 'subscription_item', current_period_end: now + days * 86400, price: { id: plan === 'yearly' ? 'price_yearly' : 'price_monthly', object: 'price', recurring: { interval: plan === 'yearly' ? 'year' : 'month' } } }],
    },
  };
}

/** An open invoice for a subscription whose payment attempt failed with `code` (Stripe's last_payment_error.code). */
export function fakeFailedInvoice({ id, subscriptionId, code }: { id: string; subscriptionId: string; code: string }): Record<string, unknown> {
  return {
    id,
    object: 'invoice',
    status: 'open',
    parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: {} }, quote_details: null },
    payments: {
      object: 'list',
      has_more: false,
      url: `/v1/invoices/${id}/payments`,
      data: [
        {
          id: `inpay_${id}`,
          object: 'invoice_payment',
          status: 'open',
          payment: { type: 'payment_intent', payment_intent: { id: `pi_${id}`, object: 'payment_intent', status: 'requires_payment_method', last_payment_error: { type: 'card_error', code, message: 'Your card was declined.' } } },
        },
      ],
    },
  };
}
