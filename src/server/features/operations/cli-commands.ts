/**
 * The operator commands, written once. The CLI runs them on a database it opened itself; the server
 * runs the very same functions on its own database when the CLI asks over the control channel
 * (PGlite is single-process), so the running server sees each change at once.
 */
import { isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import { validateEmail, validateName } from '#shared/validation.ts';
import { createAuth } from '#server/auth.ts';
import type { Config } from '#server/config.ts';
import type { Database, DatabaseHandle } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { createMailer } from '#server/mail.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { describeManifest, writeBackup } from '#server/features/operations/backup.ts';
import type { CommandResult } from '#server/features/operations/control-channel.ts';
import { findUserByEmail, grantRoleByEmail, isRole } from '#server/features/admin/roles.service.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';

export const USAGE = `Usage: npm run cli -- <command>
  grant-role <email> <user|admin|editor>
  create-user <email> <password> [--name "Full Name"] [--verified]
  grant-subscription <email> [--days N]   (comped access, default 30 days)
  setup-token                            (one-time token for /admin › Admin Setup, while no admin exists)
  backup <file.tar.gz>                   (database, media and secrets; works while the server runs)
  restore <file.tar.gz> [--force] [--deletions-from <newer.tar.gz>]...
                                         (into an empty DATA_DIR, with no server running; accounts deleted
                                          after the backup are erased again)`;

export type CommandContext = { db: Database; database: DatabaseHandle; config: Config };

const quietLog = { info: () => {}, error: (obj: object, msg: string) => console.error(msg, obj) };

const done = (output: string): CommandResult => ({ exitCode: 0, output });
const failed = (output: string): CommandResult => ({ exitCode: 1, output });

/** Runs one operator command; `argv` as typed after `npm run cli --`. Never throws for a user error. */
export async function runCommand({ db, database, config }: CommandContext, argv: string[]): Promise<CommandResult> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'grant-role': {
        const [email, role] = rest;
        if (!email || !role || !isRole(role)) return failed(USAGE);
        const { status } = await grantRoleByEmail({ db, email, role });
        return done(`Role ${role} ${status} for ${email.toLowerCase()}`);
      }
      case 'create-user': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { name: { type: 'string' }, verified: { type: 'boolean' } } });
        const [email, password] = positionals;
        if (!email || !password) return failed(USAGE);
        const emailCheck = validateEmail(email);
        if (!emailCheck.valid) return failed(emailCheck.error);
        if (password.length < MIN_PASSWORD_LENGTH) return failed('Password must be at least 6 characters long');
        const name = values.name ?? email.split('@')[0];
        const nameCheck = validateName(name);
        if (!nameCheck.valid) return failed(nameCheck.error);
        if (await findUserByEmail(db, email)) return failed(`An account with ${email} already exists`);
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
        return done(`Created ${email.toLowerCase()}${values.verified ? ' (verified)' : ' (a verification e-mail was sent)'}`);
      }
      case 'grant-subscription': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { days: { type: 'string', default: '30' } } });
        const [email] = positionals;
        const days = Number(values.days);
        if (!email || !Number.isInteger(days) || days < 1 || days > 3650) return failed(USAGE);
        const target = await findUserByEmail(db, email);
        if (!target) return failed(`No account found for ${email}`);
        const end = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
        await syncSubscription({ db, userId: target.id, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: end, environment: 'comped' } });
        return done(`Comped access for ${target.email} until ${end.toISOString().slice(0, 10)}`);
      }
      case 'setup-token': {
        const token = await issueSetupToken(db);
        if (!token) return failed('An administrator already exists: roles are managed in /admin › User Roles (or with grant-role).');
        return done(token);
      }
      case 'backup': {
        const [file] = rest;
        // The CLI resolves the name against its own working folder before handing it to a server.
        if (!file || rest.length !== 1 || !isAbsolute(file)) return failed(USAGE);
        const manifest = await writeBackup({ config, database, file });
        return done(`Backup written to ${file} (${describeManifest(manifest)})`);
      }
      case 'restore':
        return failed(`A Harbour Mind server is running on DATA_DIR ${config.dataDir}: stop it before restoring (restore replaces the database it has open).`);
      default:
        return failed(USAGE);
    }
  } catch (error) {
    return failed((error as Error).message);
  }
}
