/**
 * Sessions waiting to reach the server. Every finished play is written here first, then
 * sent; it leaves the queue only when the server has it (or refuses it for good). The play id is
 * the idempotency key, so resending after a lost response cannot count a session twice.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { BreathingSessionBody, GuidedSessionBody, RecordSessionBody, TimerSessionBody } from '#shared/contracts/practice.ts';

/** Guided plays, timer sittings (issue 20, item 1) and breathing exercises (issue 37, item 1) alike, each with the account it belongs to. */
export type PendingSession = RecordSessionBody & { userId: string };

/** The outcome of one send: 'sent', 'rejected' (never retry) or 'retry' (offline, 5xx, signed out). */
export type SendResult = 'sent' | 'rejected' | 'retry';

export function readQueue(storage: Storage = localStorage): PendingSession[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEYS.pendingSessions) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPending) : [];
  } catch {
    return [];
  }
}

/**
 * Entries queued by a build from before honest sessions carry no measurement of what was heard; the
 * server refuses them (decision 0034), so they are left behind here rather than sent to be refused.
 */
function isPending(value: unknown): value is PendingSession {
  const v = value as (Partial<Omit<GuidedSessionBody, 'kind'>> & Partial<Omit<TimerSessionBody, 'kind'>> & Partial<Omit<BreathingSessionBody, 'kind'>> & { kind?: unknown; userId?: unknown }) | null;
  if (!v || typeof v.id !== 'string' || typeof v.completedAt !== 'string' || typeof v.userId !== 'string') return false;
  if (v.kind === 'timer') return typeof v.timer?.plannedSeconds === 'number' && typeof v.timer.satSeconds === 'number';
  if (v.kind === 'breathing') return typeof v.breathing?.pattern === 'string' && typeof v.breathing.length === 'object' && typeof v.breathing.breathedSeconds === 'number';
  return (v.kind === undefined || v.kind === 'guided') && typeof v.meditationId === 'string' && Array.isArray(v.listened?.ranges) && typeof v.listened.seconds === 'number';
}

/** The body the server takes: the queued entry without the device's own bookkeeping. */
function bodyOf({ userId: _userId, ...body }: PendingSession): RecordSessionBody {
  return body;
}

function writeQueue(queue: PendingSession[], storage: Storage) {
  storage.setItem(STORAGE_KEYS.pendingSessions, JSON.stringify(queue));
}

export function enqueueSession(session: PendingSession, storage: Storage = localStorage): void {
  const queue = readQueue(storage);
  if (queue.some((s) => s.id === session.id && s.userId === session.userId)) return;
  writeQueue([...queue, session], storage);
}

let flushing: Promise<number> | null = null;
/** Sessions the server refused for good in this page's life (a page that waited on one says so, not "added"). */
const refused = new Set<string>();
export const wasRefused = (id: string): boolean => refused.has(id);

/**
 * Sends the signed-in user's queued sessions in order; returns how many the server now holds.
 * Concurrent calls share one run.
 */
export function flushSessions(userId: string, send: (body: RecordSessionBody) => Promise<SendResult>, storage: Storage = localStorage): Promise<number> {
  if (flushing) return flushing;
  flushing = (async () => {
    let delivered = 0;
    for (const session of readQueue(storage).filter((s) => s.userId === userId)) {
      const result = await send(bodyOf(session));
      if (result === 'retry') break;
      // Re-read: another tab may have changed the queue meanwhile.
      writeQueue(readQueue(storage).filter((s) => !(s.id === session.id && s.userId === userId)), storage);
      if (result === 'sent') delivered += 1;
      else refused.add(session.id);
    }
    return delivered;
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}
