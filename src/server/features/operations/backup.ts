/**
 * `backup FILE` and `restore FILE`: one .tar.gz holding everything a deployment needs to come back.
 *
 *   harbour-mind-backup.json  what is inside (format, engine, row counts, media files)
 *   pglite.tar.gz             PGlite only: the database folder as PGlite's dumpDataDir() gives it from
 *                             the live instance (consistent: it runs with queries held)
 *   database/NN-<table>.jsonl every app table, one row_to_json() per line, read in one repeatable-read
 *                             transaction (the logical dump: PostgreSQL, and PGlite → PostgreSQL moves;
 *                             pg_dump is not needed)
 *   secrets/…                 DATA_DIR/secrets (auth-secret: sessions and signed media URLs keep working)
 *   media/…                   DATA_DIR/media (local storage only; an S3 bucket is backed up by its provider)
 *
 * The database is read first and media afterwards: an upload finishing meanwhile leaves a file
 * without a row, which the start-up sweep removes; the reverse would leave a row without its audio.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is, sql, type SQL } from 'drizzle-orm';
import type { Config } from '#server/config.ts';
import { openPglite, type Database, type DatabaseHandle } from '#server/db/client.ts';
import * as schema from '#server/db/schema.ts';
import { readTarGz, writeTarGz, type TarSink, type TarSource } from '#server/features/operations/tar.ts';
import { LOCK_FILE } from '#server/features/operations/data-dir-lock.ts';
import { LEDGER_TABLE, ledgerFromDump, reapplyDeletions, readLedger } from '#server/features/operations/deletion-ledger.ts';

const MANIFEST = 'harbour-mind-backup.json';
const PGLITE_IMAGE = 'pglite.tar.gz';
const FORMAT = 1;
/** The DATA_DIR folders a backup carries (outbox and unfinished uploads are not worth keeping). */
const FOLDERS = ['secrets', 'media'] as const;
const INSERT_BATCH = 500;

export type BackupManifest = {
  format: number;
  app: 'harbour-mind';
  createdAt: string;
  engine: DatabaseHandle['kind'];
  /** Rows per table; a backup read back may lack tables added since it was made. */
  tables: Partial<Record<string, number>>;
  /** Local media files in the archive, or 's3' when the audio lives in a bucket. */
  media: number | 's3';
};

/** Every app table, parents before children (the order rows can be inserted in). */
export function tablesInDependencyOrder(): PgTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const ordered: PgTable[] = [];
  const visit = (table: PgTable, path: Set<PgTable>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const fk of getTableConfig(table).foreignKeys) {
      const parent = fk.reference().foreignTable;
      if (parent !== table) visit(parent, path);
    }
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

const nameOf = (table: PgTable) => getTableConfig(table).name;

/** Both drivers answer a raw query with `{ rows }`; the engine-neutral Database type only says `unknown`. */
async function rawRows(db: Pick<Database, 'execute'>, query: SQL): Promise<unknown[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: unknown[] }).rows;
}

/** Each table as JSON lines, all read in one snapshot. */
async function dumpTables(db: Database): Promise<{ table: string; lines: string[] }[]> {
  return db.transaction(
    async (tx) => {
      const dumped: { table: string; lines: string[] }[] = [];
      for (const table of tablesInDependencyOrder()) {
        const rows = (await rawRows(tx, sql`select row_to_json(t)::text as row from ${table} t`)) as { row: string }[];
        dumped.push({ table: nameOf(table), lines: rows.map((r) => r.row) });
      }
      return dumped;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[])
    .map((name) => join(root, name))
    .filter((path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true)
    .sort();
}

/**
 * Writes the archive to `file` (0600: it holds password hashes and the auth secret). Written under a
 * temporary name and renamed at the end, so a nightly job never leaves a half archive behind the
 * real name. Refuses to overwrite an existing file.
 */
export async function writeBackup({ config, database, file }: { config: Config; database: DatabaseHandle; file: string }): Promise<BackupManifest> {
  if (existsSync(file)) throw new Error(`${file} already exists: choose a new name (backups are never overwritten)`);
  mkdirSync(dirname(file), { recursive: true });
  const image = database.kind === 'pglite' && database.dumpDataDir ? Buffer.from(await (await database.dumpDataDir()).arrayBuffer()) : undefined;
  const tables = await dumpTables(database.db);
  const folders = FOLDERS.filter((folder) => !(folder === 'media' && config.s3)).map((folder) => ({ folder, files: filesUnder(join(config.dataDir, folder)) }));
  const manifest: BackupManifest = {
    format: FORMAT,
    app: 'harbour-mind',
    createdAt: new Date().toISOString(),
    engine: database.kind,
    tables: Object.fromEntries(tables.map(({ table, lines }) => [table, lines.length])),
    media: config.s3 ? 's3' : (folders.find((f) => f.folder === 'media')?.files.length ?? 0),
  };
  function* sources(): Generator<TarSource> {
    const about = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    yield { name: MANIFEST, body: about };
    if (image) yield { name: PGLITE_IMAGE, body: image };
    for (const [index, { table, lines }] of tables.entries()) {
      const body = Buffer.from(lines.map((line) => `${line}\n`).join(''));
      yield { name: `database/${String(index).padStart(2, '0')}-${table}.jsonl`, body };
    }
    for (const { folder, files } of folders) {
      for (const path of files) {
        yield { name: `${folder}/${relative(join(config.dataDir, folder), path).split(sep).join('/')}`, mtime: statSync(path, { throwIfNoEntry: false })?.mtime, body: { file: path } };
      }
    }
  }
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await writeTarGz(partial, sources());
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return manifest;
}

/** A readable summary of a manifest for the CLI. */
export function describeManifest(manifest: BackupManifest): string {
  const t = manifest.tables;
  const media = manifest.media === 's3' ? 'audio in S3 (not in the archive)' : `${manifest.media} media files`;
  return `${t.user ?? 0} accounts, ${t.subscribers ?? 0} subscriptions, ${t.meditation_previews ?? 0} meditations, ${t.favourites ?? 0} favourites, ${t.meditation_sessions ?? 0} practice sessions, ${media}`;
}

/** DATA_DIR holds nothing but (at most) the lock this restore holds. */
function dataDirIsEmpty(dataDir: string): boolean {
  if (!existsSync(dataDir)) return true;
  return readdirSync(dataDir).every((name) => name.startsWith(LOCK_FILE));
}

/** Only names this code writes, and never outside the staging folder. */
function safeEntryName(name: string): boolean {
  const clean = normalize(name);
  return clean === name && !clean.startsWith('..') && !clean.startsWith('/') && (name === MANIFEST || name === PGLITE_IMAGE || /^(database|secrets|media)\/./.test(name));
}

function memorySink(done: (bytes: Buffer) => void): TarSink {
  const chunks: Buffer[] = [];
  return { write: (chunk) => void chunks.push(Buffer.from(chunk)), end: () => done(Buffer.concat(chunks)) };
}

async function fileSink(path: string): Promise<TarSink> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const handle: FileHandle = await open(path, 'wx', 0o600);
  return {
    write: async (chunk) => {
      await handle.write(chunk);
    },
    end: () => handle.close(),
  };
}

/** Inserts dumped rows into a migrated database that holds none (or is emptied first with `replace`). */
async function loadTables(db: Database, dumps: Map<string, string[]>, { replace }: { replace: boolean }): Promise<void> {
  const tables = tablesInDependencyOrder();
  await db.transaction(async (tx) => {
    if (replace) await tx.execute(sql`truncate ${sql.join(tables.map((t) => sql`${t}`), sql`, `)} cascade`);
    for (const table of tables) {
      const lines = dumps.get(nameOf(table)) ?? [];
      for (let start = 0; start < lines.length; start += INSERT_BATCH) {
        const batch = lines.slice(start, start + INSERT_BATCH);
        // Only the columns the backup has: a column added since then keeps its default.
        const columns = Object.keys(JSON.parse(batch[0]) as object);
        const list = sql.join(columns.map((c) => sql.identifier(c)), sql`, `);
        await tx.execute(sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${`[${batch.join(',')}]`}::json)`);
      }
    }
    // The journal's change numbers go on from the highest restored one: a device asking "what changed
    // since N" must never be handed a number it has already seen (decision 0031).
    await tx.execute(sql`select setval('journal_change_seq', greatest((select coalesce(max(seq), 0) from journal_records), 1))`);
  });
}

/** Row counts of every app table (to refuse restoring over data). */
async function countRows(db: Database): Promise<number> {
  let total = 0;
  for (const table of tablesInDependencyOrder()) {
    const [row] = (await rawRows(db, sql`select count(*)::int as n from ${table}`)) as [{ n: number }];
    total += row.n;
  }
  return total;
}

/** The deletion ledger kept in another backup (a newer one, when an older one is restored). */
async function ledgerOfArchive(file: string): Promise<string[]> {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  let lines: string[] = [];
  const manifest = { ours: false };
  await readTarGz(file, ({ name }) => {
    if (name === MANIFEST) {
      return memorySink((bytes) => {
        const parsed = JSON.parse(bytes.toString('utf8')) as Partial<BackupManifest> | null;
        manifest.ours = parsed?.app === 'harbour-mind' && parsed.format === FORMAT;
      });
    }
    if (/^database\/\d+-(.+)\.jsonl$/.exec(name)?.[1] === LEDGER_TABLE) return memorySink((bytes) => (lines = bytes.toString('utf8').split('\n').filter(Boolean)));
    return undefined;
  });
  if (!manifest.ours) throw new Error(`${file} is not a Harbour Mind backup of format ${FORMAT}`);
  return lines;
}

/**
 * The ledger of the embedded database a forced restore is about to replace. A database too damaged to
 * open (often why one restores) cannot say: the restore goes on, and says so.
 */
async function ledgerOfReplacedPglite(dataDir: string, notes: string[]) {
  const folder = join(dataDir, 'pglite');
  if (!existsSync(folder)) return [];
  const replaced = openPglite({ dataDir: folder });
  try {
    return await readLedger(replaced.db);
  } catch (error) {
    notes.push(`The database being replaced could not be read (${(error as Error).message}): accounts deleted since the backup are erased again only from the backup's own list and --deletions-from.`);
    return [];
  } finally {
    await replaced.close();
  }
}

export type RestoreResult = {
  manifest: BackupManifest;
  /** Accounts deleted after the backup was made, erased again. */
  reapplied: number;
  /** What the operator should know (a ledger that could not be read). */
  notes: string[];
};

/**
 * Fills DATA_DIR (and, with DATABASE_URL, the PostgreSQL database) from an archive. Refuses a folder
 * or database that holds data unless `force`. Everything is unpacked into a staging folder inside
 * DATA_DIR first and moved into place only once it all opened, so a damaged archive changes nothing.
 * The caller holds DATA_DIR's lock (no server runs on it).
 *
 * Accounts deleted after the backup was made are erased again before anything opens the restored data
 * (issue 33, the privacy policy's promise): the ids come from the deletion ledger of the database being
 * replaced, of the backup itself, and of the archives in `deletionsFrom` (newer backups).
 */
export async function restoreBackup({
  config,
  file,
  force,
  openTarget,
  deletionsFrom = [],
}: {
  config: Config;
  file: string;
  force: boolean;
  /** Opens the PostgreSQL database a DATABASE_URL restore fills. */
  openTarget: () => DatabaseHandle;
  /** Newer backups whose deletion ledgers apply too. */
  deletionsFrom?: readonly string[];
}): Promise<RestoreResult> {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const { dataDir } = config;
  const intoPostgres = Boolean(config.databaseUrl);
  // With DATABASE_URL the folder keeps only media and secrets: those must be empty.
  const occupied = intoPostgres ? FOLDERS.some((folder) => filesUnder(join(dataDir, folder)).length > 0) : !dataDirIsEmpty(dataDir);
  if (!force && occupied) {
    throw new Error(`DATA_DIR ${dataDir} is not empty: restore fills an empty folder. Add --force to replace its ${intoPostgres ? 'media and secrets' : 'database, media and secrets'}.`);
  }
  const notes: string[] = [];
  const ledger = [];
  for (const other of deletionsFrom) ledger.push(...ledgerFromDump(await ledgerOfArchive(other)));
  const stage = join(dataDir, `.restore-${randomBytes(4).toString('hex')}`);
  mkdirSync(stage, { recursive: true, mode: 0o700 });
  try {
    let manifest: BackupManifest | undefined;
    let image: Buffer | undefined;
    const dumps = new Map<string, string[]>();
    await readTarGz(file, async ({ name }) => {
      if (!safeEntryName(name)) throw new Error(`Not a Harbour Mind backup (unexpected entry ${name})`);
      if (name === MANIFEST) {
        return memorySink((bytes) => {
          // The archive is outside input: check the fields that say it is ours before trusting the rest.
          const parsed = JSON.parse(bytes.toString('utf8')) as Partial<BackupManifest> | null;
          if (parsed?.app !== 'harbour-mind' || parsed.format !== FORMAT) throw new Error(`Not a Harbour Mind backup of format ${FORMAT}`);
          manifest = parsed as BackupManifest;
        });
      }
      if (!manifest) throw new Error('Not a Harbour Mind backup (no manifest first)');
      if (name === PGLITE_IMAGE) return memorySink((bytes) => (image = bytes));
      if (name.startsWith('database/')) {
        const table = /^database\/\d+-(.+)\.jsonl$/.exec(name)?.[1];
        return table ? memorySink((bytes) => dumps.set(table, bytes.toString('utf8').split('\n').filter(Boolean))) : undefined;
      }
      return fileSink(join(stage, name));
    });
    if (!manifest) throw new Error('Not a Harbour Mind backup (empty archive)');
    ledger.push(...ledgerFromDump(dumps.get(LEDGER_TABLE) ?? []));

    let reapplied = 0;
    if (intoPostgres) {
      const target = openTarget();
      try {
        await target.migrate();
        if (!force && (await countRows(target.db)) > 0) throw new Error('The PostgreSQL database already holds data: restore fills an empty one. Add --force to replace it.');
        ledger.push(...(await readLedger(target.db)));
        await loadTables(target.db, dumps, { replace: force });
        reapplied = await reapplyDeletions(target.db, ledger);
      } finally {
        await target.close();
      }
    } else {
      if (force) ledger.push(...(await ledgerOfReplacedPglite(dataDir, notes)));
      // PGlite: the folder image when there is one (exact), otherwise a fresh database filled from the dump.
      const client = image ? new PGlite(join(stage, 'pglite'), { loadDataDir: new Blob([new Uint8Array(image)]) }) : new PGlite(join(stage, 'pglite'));
      const database = openPglite({ dataDir: join(stage, 'pglite'), client });
      try {
        await database.migrate();
        if (!image) await loadTables(database.db, dumps, { replace: false });
        reapplied = await reapplyDeletions(database.db, ledger);
      } finally {
        await database.close();
      }
    }

    for (const folder of intoPostgres ? FOLDERS : (['pglite', ...FOLDERS] as const)) {
      const target = join(dataDir, folder);
      if (existsSync(join(stage, folder))) {
        rmSync(target, { recursive: true, force: true });
        renameSync(join(stage, folder), target);
      }
    }
    return { manifest, reapplied, notes };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
