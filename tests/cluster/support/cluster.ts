/**
 * Two app processes as docs/cluster.md deploys them: one PostgreSQL database (fresh for this run,
 * dropped after), one Redis (a database number of its own, emptied before and after), one
 * S3-compatible bucket (the local S3 fake) for audio, each process with its own DATA_DIR, and
 * nginx round-robin in front. PUBLIC_URL is the proxy's URL; TRUST_PROXY_HOPS=1.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startFakeS3, type FakeS3 } from '#tests/fakes/fake-s3.ts';
import { createPostgresDatabase } from '#tests/setup/postgres-database.ts';
import { freePort, makeDataDir, startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { startNginx, type Proxy } from '#tests/cluster/support/nginx.ts';

/** Where to create (and drop) the run's database: any database on the server will do. */
export const POSTGRES_ADMIN_URL = process.env.CLUSTER_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The Redis server and the database number this test may empty (nothing else uses it). */
export const REDIS_URL = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379/13';
export const S3_BUCKET = 'harbour-media';

export type Cluster = {
  proxy: Proxy;
  /** The two processes, in start order. */
  apps: [RunningServer, RunningServer];
  /** Each process's own address (what nginx's access log calls the upstream). */
  upstreams: [string, string];
  databaseUrl: string;
  redis: Redis;
  s3: FakeS3;
  stop: () => Promise<void>;
};

/** A new, empty database for this run; drop() removes it (closing any session left on it). */
export const createDatabase = () => createPostgresDatabase(POSTGRES_ADMIN_URL, 'hm_cluster');

/** The environment every process gets (docs/cluster.md), on top of startServer's production defaults. */
export function clusterEnv({ databaseUrl, authSecret, publicUrl, s3Endpoint }: { databaseUrl: string; authSecret: string; publicUrl: string; s3Endpoint: string }): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: authSecret,
    REDIS_URL,
    PUBLIC_URL: publicUrl,
    TRUST_PROXY_HOPS: '1',
    S3_BUCKET,
    S3_ENDPOINT: s3Endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'cluster-test',
    S3_SECRET_ACCESS_KEY: 'cluster-test-secret',
    S3_FORCE_PATH_STYLE: 'true',
    SEED_DEMO: 'true',
  };
}

export const newAuthSecret = () => `cluster-${randomBytes(24).toString('hex')}`;

export async function startCluster(): Promise<Cluster> {
  // Undone in reverse order; one failing step must not keep the others from cleaning up.
  const stops: (() => unknown)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error('cluster cleanup:', error);
      }
    }
  };
  try {
    const database = await createDatabase();
    stops.push(() => database.drop());
    const databaseUrl = database.url;

    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
    await redis.flushdb();
    stops.push(async () => {
      await redis.flushdb();
      await redis.quit();
    });

    const s3 = await startFakeS3(S3_BUCKET);
    stops.push(() => s3.close());

    const proxyPort = await freePort();
    const env = clusterEnv({ databaseUrl, authSecret: newAuthSecret(), publicUrl: `http://127.0.0.1:${proxyPort}`, s3Endpoint: s3.endpoint });
    // One after the other, so the test knows which setup token is current (each start replaces the
    // unused one). Processes starting at the same moment have a test of their own.
    const apps: RunningServer[] = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = makeDataDir();
      stops.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const app = await startServer(env, { dataDir });
      apps.push(app);
      stops.push(() => app.stop());
    }
    const upstreams: [string, string] = [`127.0.0.1:${apps[0].port}`, `127.0.0.1:${apps[1].port}`];

    const nginxDir = mkdtempSync(join(tmpdir(), 'hm-nginx-'));
    stops.push(() => rmSync(nginxDir, { recursive: true, force: true }));
    const proxy = await startNginx({ port: proxyPort, upstreams, dir: nginxDir });
    stops.push(() => proxy.stop());

    return { proxy, apps: [apps[0], apps[1]], upstreams, databaseUrl, redis, s3, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
