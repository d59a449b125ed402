/**
 * Operator commands: `npm run cli -- <command>`.
 *   grant-role <email> <user|admin|editor>
 *   create-user <email> <password> [--name N] [--verified]
 *   grant-subscription <email> [--days N]
 *   setup-token
 * They use the same config (DATA_DIR / DATABASE_URL) as the server.
 */
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { validateEmail, validateName } from '#shared/validation.ts';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import { createAuth } from '#server/auth.ts';
import { loadConfig, type Config } from '#server/config.ts';
import { user } from '#server/db/schema/auth.ts';
import { createMailer } from '#server/mail.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { findUserByEmail, grantRoleByEmail, isRole } from '#server/features/roles/roles.service.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { logSecuredDataDir, openDatabase, PRIVATE_UMASK, secureDataDir } from '#server/runtime.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { join } from 'node:path';

const USAGE = `Usage: npm run cli -- <command>
  grant-role <email> <user|admin|editor>
  create-user <email> <password> [--name "Full Name"] [--verified]
  grant-subscription <email> [--days N]   (comped access, default 30 days)
  setup-token                            (one-time token for /admin › Admin Setup, while no admin exists)`;

const quietLog = { info: () => {}, error: (obj: object, msg: string) => console.error(msg, obj) };

export async function runCli(argv: string[], config: Config = loadConfig()): Promise<number> {
  const [command, ...rest] = argv;
  logSecuredDataDir(secureDataDir(config.dataDir), { warn: (_obj: object, msg: string) => console.error(msg) });
  const database = openDatabase(config);
  try {
    await database.migrate();
    const db = database.db;
    switch (command) {
      case 'grant-role': {
        const [email, role] = rest;
        if (!email || !role || !isRole(role)) return fail(USAGE);
        const { status } = await grantRoleByEmail({ db, email, role });
        console.log(`Role ${role} ${status} for ${email.toLowerCase()}`);
        return 0;
      }
      case 'create-user': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { name: { type: 'string' }, verified: { type: 'boolean' } } });
        const [email, password] = positionals;
        if (!email || !password) return fail(USAGE);
        const emailCheck = validateEmail(email);
        if (!emailCheck.valid) return fail(emailCheck.error);
        if (password.length < MIN_PASSWORD_LENGTH) return fail('Password must be at least 6 characters long');
        const name = values.name ?? email.split('@')[0]!;
        const nameCheck = validateName(name);
        if (!nameCheck.valid) return fail(nameCheck.error);
        if (await findUserByEmail(db, email)) return fail(`An account with ${email} already exists`);
        const auth = createAuth({
          config,
          db,
          secret: loadOrCreateSecret(config.dataDir, 'auth-secret', config.authSecret),
          log: quietLog,
          mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'outbox'), log: quietLog }),
        });
        // Through better-auth so the password is hashed exactly as sign-up does it.
        const created = await auth.api.signUpEmail({ body: { email: email.toLowerCase(), password, name } });
        if (values.verified) await db.update(user).set({ emailVerified: true }).where(eq(user.id, created.user.id));
        console.log(`Created ${email.toLowerCase()}${values.verified ? ' (verified)' : ' (a verification e-mail was sent)'}`);
        return 0;
      }
      case 'grant-subscription': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { days: { type: 'string', default: '30' } } });
        const [email] = positionals;
        const days = Number(values.days);
        if (!email || !Number.isInteger(days) || days < 1 || days > 3650) return fail(USAGE);
        const target = await findUserByEmail(db, email);
        if (!target) return fail(`No account found for ${email}`);
        const end = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
        await syncSubscription({ db, userId: target.id, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: end, environment: 'comped' } });
        console.log(`Comped access for ${target.email} until ${end.toISOString().slice(0, 10)}`);
        return 0;
      }
      case 'setup-token': {
        const token = await issueSetupToken(db);
        if (!token) return fail('An administrator already exists: roles are managed in /admin › User Roles (or with grant-role).');
        console.log(token);
        return 0;
      }
      default:
        return fail(USAGE);
    }
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    await database.close();
  }
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // As the server does: whatever the CLI writes in DATA_DIR (database, secrets, mail) is private.
  process.umask(PRIVATE_UMASK);
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
