/**
 * A job a server process runs in the background (reminders, sweeps, retries): first after
 * `firstAfterMs` when given (once start-up is over), then every `everyMs`. One run at a time in this
 * process: a run that outlasts the interval is not started again beside itself. A failure is logged
 * and the next tick tries again. The timers never keep the process alive, and the returned function
 * stops the job and waits for a run under way, so a shutdown never cuts one in half.
 */
type Log = { error(obj: object, msg: string): void };

export function startBackgroundJob({ log, failure, everyMs, firstAfterMs, run }: { log: Log; /** What the log says when a run fails. */ failure: string; everyMs: number; firstAfterMs?: number; run: () => Promise<unknown> }): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= run()
      .catch((error: unknown) => log.error({ err: { message: error instanceof Error ? error.message : String(error) } }, failure))
      .finally(() => (running = undefined));
  };
  const first = firstAfterMs === undefined ? undefined : setTimeout(tick, firstAfterMs);
  const timer = setInterval(tick, everyMs);
  first?.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
