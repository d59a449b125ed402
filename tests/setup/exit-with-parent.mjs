/**
 * Loaded first into every server a test starts (server-process.ts): the server stops when the test
 * process that started it is gone. A worker whose test timed out is ended by the runner without
 * stopping what the test started; an orphaned server would keep a core busy for every later test.
 * Plain JavaScript, so the server needs no TypeScript loader for it.
 */
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
