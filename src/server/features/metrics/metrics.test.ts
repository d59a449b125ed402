import { describe, expect, it } from 'vitest';
import { createTestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

describe('/metrics', () => {
  // Two settings, one database: the metrics are each app's own.
  const database = openForSuite(() => createTestDatabase('pglite'));
  const open = openForSuite(() => createTestApp({ database }));
  const tokened = openForSuite(() => createTestApp({ database, env: { METRICS_TOKEN: 'scrape-me' } }));

  it('counts requests by route pattern for the machine itself, never by raw URL', async () => {
    await open.app.inject({ method: 'GET', url: '/api/meditations/3f1c6a4e-2b7d-4c1e-9a8b-000000000001' });
    await open.app.inject({ method: 'GET', url: '/api/health' });
    const res = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1/);
    expect(res.body).toContain('route="/api/meditations/:id"');
    expect(res.body).not.toContain('3f1c6a4e');
    expect(res.body).toContain('process_cpu_user_seconds_total');
  });

  it('refuses other machines unless they bring the token', async () => {
    expect((await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' })).statusCode).toBe(403);
    // Through a reverse proxy on the same machine: loopback, but forwarded for someone else.
    expect((await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } })).statusCode).toBe(403);
    expect((await tokened.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(403);
    expect((await tokened.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer wrong-token' } })).statusCode).toBe(403);
    expect((await tokened.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer scrape-me' } })).statusCode).toBe(200);
  });
});
