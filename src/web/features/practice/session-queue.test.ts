// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { RecordSessionBody } from '#shared/contracts/practice.ts';
import { enqueueSession, flushSessions, readQueue, wasRefused, type SendResult } from '#web/features/practice/session-queue.ts';

const listened = { ranges: [{ start: 0, end: 30 }], seconds: 30 };
const session = (id: string, userId = 'u1') => ({ id, meditationId: 'm1', completedAt: '2026-11-23T08:00:00.000Z', listened, userId });

/** Sends u1's queue to a server that takes everything, and answers with what it was sent. */
async function flushAndCollect(): Promise<RecordSessionBody[]> {
  const bodies: RecordSessionBody[] = [];
  await flushSessions('u1', (body) => {
    bodies.push(body);
    return Promise.resolve('sent');
  });
  return bodies;
}

describe('pending session queue', () => {
  beforeEach(() => localStorage.clear());

  it('leaves behind entries queued before honest sessions (no measurement of what was heard: the server refuses them)', () => {
    localStorage.setItem(STORAGE_KEYS.pendingSessions, JSON.stringify([{ id: 'old', meditationId: 'm1', completedAt: '2026-11-23T08:00:00.000Z', userId: 'u1' }, session('new')]));
    expect(readQueue().map((s) => s.id)).toEqual(['new']);
  });

  it('stores each play once', () => {
    enqueueSession(session('a'));
    enqueueSession(session('a'));
    enqueueSession(session('b'));
    expect(readQueue().map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('keeps everything while offline and sends it all, in order, once back', async () => {
    enqueueSession(session('a'));
    enqueueSession(session('b'));
    const offline = (): Promise<SendResult> => Promise.resolve('retry');
    expect(await flushSessions('u1', offline)).toBe(0);
    expect(readQueue()).toHaveLength(2);
    const sent: string[] = [];
    const online = (body: RecordSessionBody): Promise<SendResult> => {
      sent.push(body.id);
      return Promise.resolve('sent');
    };
    expect(await flushSessions('u1', online)).toBe(2);
    expect(sent).toEqual(['a', 'b']);
    expect(readQueue()).toEqual([]);
  });

  it('drops a session the server refuses for good, and keeps going', async () => {
    enqueueSession(session('a'));
    enqueueSession(session('b'));
    expect(await flushSessions('u1', (b) => Promise.resolve(b.id === 'a' ? 'rejected' : 'sent'))).toBe(1);
    expect(readQueue()).toEqual([]);
    // A page that waited on it (the timer's closing words) can tell refused from added.
    expect(wasRefused('a')).toBe(true);
    expect(wasRefused('b')).toBe(false);
  });

  it('sends only the signed-in user’s sessions and never the user id', async () => {
    enqueueSession(session('a', 'u1'));
    enqueueSession(session('b', 'u2'));
    const bodies: RecordSessionBody[] = [];
    await flushSessions('u2', (b) => {
      bodies.push(b);
      return Promise.resolve('sent');
    });
    expect(bodies).toEqual([{ id: 'b', meditationId: 'm1', completedAt: '2026-11-23T08:00:00.000Z', listened }]);
    expect(readQueue().map((s) => s.id)).toEqual(['a']);
  });

  it('keeps and sends timer sittings (issue 20, item 1) as they were queued, and leaves a malformed one behind', async () => {
    const sittingBody = { kind: 'timer' as const, id: 't1', completedAt: '2026-11-23T08:00:00.000Z', timer: { plannedSeconds: 600, satSeconds: 600 } };
    localStorage.setItem(STORAGE_KEYS.pendingSessions, JSON.stringify([{ ...sittingBody, userId: 'u1' }, { kind: 'timer', id: 't2', completedAt: '2026-11-23T08:00:00.000Z', userId: 'u1' }, { kind: 'walk', id: 't3', completedAt: '2026-11-23T08:00:00.000Z', userId: 'u1', meditationId: 'm1', listened }]));
    expect(readQueue().map((s) => s.id)).toEqual(['t1']);
    const bodies = await flushAndCollect();
    expect(bodies).toEqual([sittingBody]);
  });

  it('keeps and sends breathing exercises (issue 37, item 1) as they were queued, and leaves a malformed one behind', async () => {
    const exerciseBody = { kind: 'breathing' as const, id: 'b1', completedAt: '2026-11-27T08:00:00.000Z', breathing: { pattern: 'box' as const, length: { count: 1 as const, unit: 'cycles' as const }, breathedSeconds: 16 } };
    localStorage.setItem(STORAGE_KEYS.pendingSessions, JSON.stringify([{ ...exerciseBody, userId: 'u1' }, { kind: 'breathing', id: 'b2', completedAt: '2026-11-27T08:00:00.000Z', userId: 'u1', breathing: { pattern: 'box' } }]));
    expect(readQueue().map((s) => s.id)).toEqual(['b1']);
    const bodies = await flushAndCollect();
    expect(bodies).toEqual([exerciseBody]);
  });

  it('shares one run between concurrent flushes (no double send)', async () => {
    enqueueSession(session('a'));
    let calls = 0;
    let answer: (result: SendResult) => void = () => {};
    const slow = (): Promise<SendResult> => {
      calls += 1;
      return new Promise((resolve) => (answer = resolve));
    };
    const both = Promise.all([flushSessions('u1', slow), flushSessions('u1', slow)]);
    answer('sent');
    await both;
    expect(calls).toBe(1);
  });

  it('survives a corrupt stored value', () => {
    localStorage.setItem('hm.pendingSessions', '{not json');
    expect(readQueue()).toEqual([]);
    localStorage.setItem('hm.pendingSessions', JSON.stringify([{ id: 1 }, session('ok')]));
    expect(readQueue().map((s) => s.id)).toEqual(['ok']);
  });
});
