/**
 * People for the journeys, made the way an operator makes them: the server's own `create-user`,
 * `grant-role` and `grant-subscription` commands over its control socket (no process spawned, no
 * e-mail to wait for), then signed in through the app's HTTP API so the cookies land in the browser
 * context. Sign-up, the verification e-mail and the sign-in screen keep their own journeys
 * (accounts.e2e.ts); every other journey starts here. Each person has an address of their own, so
 * files can share one server (tests/setup/e2e-global-setup.ts).
 */
import type { BrowserContext } from 'playwright-core';
import { sendControlRequest } from '#server/features/operations/control-channel.ts';
import { readLockHolder } from '#server/features/operations/data-dir-lock.ts';
import type { SuiteServer } from '#tests/e2e/support/suite.ts';

export type Person = { email: string; password: string; name: string };
type Server = Pick<SuiteServer, 'url' | 'dataDir'>;

let made = 0;

/** An address no other person in this run has: the first name, this worker and a counter. */
export function uniqueEmail(name: string): string {
  made += 1;
  const first = name.split(' ')[0].toLowerCase().replace(/[^a-z]/g, '') || 'person';
  return `${first}-${process.env.VITEST_POOL_ID ?? '0'}-${process.pid}-${made}@example.com`;
}

/** Runs an operator command inside the running server (the CLI's own path, without the CLI's process). */
export async function serverCommand(server: Server, argv: string[]): Promise<string> {
  const socket = readLockHolder(server.dataDir)?.socket;
  if (!socket) throw new Error(`No server holds ${server.dataDir}`);
  const result = await sendControlRequest(socket, { command: 'run', argv }, 30_000);
  if (result.exitCode !== 0) throw new Error(`${argv[0]} failed: ${result.output}`);
  return result.output;
}

/** Fails with the step's name and the server's answer unless the response is a 2xx. */
export async function ok(response: { ok(): boolean; status(): number; text(): Promise<string> }, step: string) {
  if (!response.ok()) throw new Error(`${step} failed (${response.status()}): ${await response.text()}`);
}

/** A verified account, with a role when asked; not signed in anywhere. */
export async function makePerson(
  server: Server,
  { name = 'Sam Reed', password = 'quiet-harbour-1', role, email = uniqueEmail(name) }: { name?: string; password?: string; role?: 'admin' | 'editor'; /** Only on a server of the file's own. */ email?: string } = {},
): Promise<Person> {
  const person = { name, password, email };
  await serverCommand(server, ['create-user', person.email, password, '--name', name, '--verified']);
  if (role) await serverCommand(server, ['grant-role', person.email, role]);
  return person;
}

/** Signs `person` in through the API: the context's pages are then signed in. */
export async function signIn(server: Server, context: BrowserContext, person: Pick<Person, 'email' | 'password'>): Promise<void> {
  const headers = { origin: server.url };
  await ok(await context.request.post(`${server.url}/api/auth/sign-in/email`, { data: { email: person.email, password: person.password }, headers }), 'sign-in');
}

/** A monthly plan through the sandbox checkout, as the subscribe button buys it (a trial, then paid). */
export async function subscribe(server: Server, context: BrowserContext): Promise<void> {
  const headers = { origin: server.url };
  const checkout = await context.request.post(`${server.url}/api/billing/checkout`, { data: { plan: 'monthly' }, headers });
  await ok(checkout, 'checkout');
  const { url } = (await checkout.json()) as { url: string };
  const sessionId = new URL(url, server.url).searchParams.get('session_id');
  await ok(await context.request.post(`${server.url}/api/billing/sandbox/sessions/${sessionId}/complete`, { headers }), 'sandbox payment');
}

/** A verified member signed in in `context`. */
export async function signedInMember(server: Server, context: BrowserContext, options: Parameters<typeof makePerson>[1] = {}): Promise<Person> {
  const person = await makePerson(server, options);
  await signIn(server, context, person);
  return person;
}

/** A verified subscriber (sandbox checkout) signed in in `context`. */
export async function signedInSubscriber(server: Server, context: BrowserContext, options: Parameters<typeof makePerson>[1] = {}): Promise<Person> {
  const person = await signedInMember(server, context, options);
  await subscribe(server, context);
  return person;
}
