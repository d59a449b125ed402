/**
 * LISTEN on a PostgreSQL server through a connection of its own (a pooled connection cannot hold a
 * LISTEN). When the connection drops it comes back with a growing pause, and `onNotify` runs once
 * on every reconnection: notifications sent while it was away are lost, so the listener must
 * assume something changed.
 */
import pg from 'pg';

const MAX_PAUSE_MS = 30_000;

export async function listenOnPostgres(connectionString: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let closed = false;
  let pauseMs = 500;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
    const lost = () => {
      if (client !== next || closed) return;
      client = undefined;
      next.end().catch(() => {});
      retry = setTimeout(() => void reconnect(), pauseMs);
      retry.unref();
      pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    await next.connect();
    // The channel is ours and constant; quoted as an identifier all the same.
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    pauseMs = 500;
  };

  const reconnect = async () => {
    if (closed) return;
    try {
      await connect();
      onNotify();
    } catch {
      retry = setTimeout(() => void reconnect(), pauseMs);
      retry.unref();
      pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
    }
  };

  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}
