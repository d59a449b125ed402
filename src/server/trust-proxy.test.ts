/** Per-IP limits see the real client behind a configured proxy, and cannot be dodged without one. */
import { describe, expect, it } from 'vitest';
import { WAITLIST } from '#shared/waitlist.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

const join = (t: TestApp, n: number, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/waitlist', remoteAddress: '10.0.0.1', headers, payload: { name: 'Proxy Person', email: `p${n}-${Math.random().toString(36).slice(2)}@example.com` } });

describe('client addresses and proxies', () => {
  // Two settings, one database: each test's clients have addresses of their own.
  const database = openForSuite(() => createTestDatabase('pglite'));
  const direct = openForSuite(() => createTestApp({ database }));
  const proxied = openForSuite(() => createTestApp({ database, env: { TRUST_PROXY_HOPS: '1' } }));

  it('ignores X-Forwarded-For when no proxy is configured, so it cannot be used to dodge a limit', async () => {
    const statuses = [];
    for (let i = 0; i <= WAITLIST.perIpLimit; i++) statuses.push((await join(direct, i, { 'x-forwarded-for': `198.51.100.${i}` })).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });

  it('behind one proxy, counts each client separately', async () => {
    const statuses = [];
    for (let i = 0; i <= WAITLIST.perIpLimit; i++) statuses.push((await join(proxied, i, { 'x-forwarded-for': `198.51.100.${i}` })).statusCode);
    expect(statuses.every((s) => s === 201)).toBe(true);
    // A client cannot forge an extra hop in front of the trusted proxy.
    for (let i = 0; i < WAITLIST.perIpLimit; i++) await join(proxied, 100 + i, { 'x-forwarded-for': `203.0.113.${i}, 192.0.2.50` });
    expect((await join(proxied, 200, { 'x-forwarded-for': '203.0.113.99, 192.0.2.50' })).statusCode).toBe(429);
  });
});
