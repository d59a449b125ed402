/**
 * Just enough of POSIX ustar, gzipped, for backup archives: regular files and their folders,
 * streamed in both directions so audio never has to fit in memory. Node ships gzip but no tar, and
 * one small format is cheaper than a dependency (any `tar -xzf` reads what this writes).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

const BLOCK = 512;

export type TarSource = {
  name: string;
  mtime?: Date;
  /** The bytes, or a file to stream them from (its size is read when it is opened). */
  body: Buffer | { file: string };
};

export type TarEntry = { name: string; size: number };
/** Where an entry's bytes go while the archive is read. */
export type TarSink = { write(chunk: Buffer): Promise<void> | void; end(): Promise<void> | void };

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  for (let i = name.indexOf('/'); i !== -1; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`File name too long for a backup archive: ${name}`);
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(source: TarSource & { size: number }): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(source.name);
  block.write(base, 0, 100);
  block.write(octal(0o600, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(source.size, 12), 124);
  block.write(octal(Math.floor((source.mtime ?? new Date()).getTime() / 1000), 12), 136);
  block.write('        ', 148); // checksum counted as spaces
  block.write('0', 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  block.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

async function* tarStream(sources: AsyncIterable<TarSource> | Iterable<TarSource>): AsyncGenerator<Buffer> {
  for await (const source of sources) {
    if (Buffer.isBuffer(source.body)) {
      yield header({ ...source, size: source.body.length });
      yield source.body;
      yield padding(source.body.length);
      continue;
    }
    // Open first: a file removed meanwhile (a meditation deleted during the backup) is left out, and
    // one removed after opening is still read whole through its descriptor.
    let handle: FileHandle;
    try {
      handle = await open(source.body.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      // Exactly the size announced in the header, or every later entry would shift.
      const size = (await handle.stat()).size;
      yield header({ ...source, size });
      let sent = 0;
      while (sent < size) {
        const { bytesRead, buffer } = await handle.read({ buffer: Buffer.alloc(Math.min(1 << 20, size - sent)) });
        if (bytesRead === 0) throw new Error(`${source.body.file} shrank while it was archived`);
        sent += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
      yield padding(size);
    } finally {
      await handle.close();
    }
  }
  yield Buffer.alloc(BLOCK * 2);
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Writes a .tar.gz of `sources` to `file` (mode 0600). */
export async function writeTarGz(file: string, sources: AsyncIterable<TarSource> | Iterable<TarSource>): Promise<void> {
  await pipeline(Readable.from(tarStream(sources)), createGzip(), createWriteStream(file, { mode: 0o600, flags: 'wx' }));
}

function parseHeader(block: Buffer): TarEntry & { type: string } {
  const text = (start: number, length: number) => {
    const raw = block.subarray(start, start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end === -1 ? length : end).toString('utf8');
  };
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  if (sum !== parseInt(text(148, 8).trim(), 8)) throw new Error('Not a backup archive (damaged tar header)');
  const prefix = text(345, 155);
  const base = text(0, 100);
  return { name: prefix ? `${prefix}/${base}` : base, size: parseInt(text(124, 12).trim() || '0', 8), type: text(156, 1) || '0' };
}

/**
 * Reads a .tar.gz entry by entry: `open` decides where each regular file's bytes go (undefined
 * skips it). Folders and other entry types are skipped.
 */
export async function readTarGz(file: string, open: (entry: TarEntry) => Promise<TarSink | undefined> | TarSink | undefined): Promise<void> {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  let pending: Buffer = Buffer.alloc(0);
  let entry: { sink: TarSink | undefined; remaining: number; skip: number } | undefined;
  let finished = false;
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    if (finished) continue;
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (entry) {
        const take = Math.min(entry.remaining, pending.length);
        if (take > 0) await entry.sink?.write(pending.subarray(0, take));
        pending = pending.subarray(take);
        entry.remaining -= take;
        if (entry.remaining > 0) break;
        const skip = Math.min(entry.skip, pending.length);
        pending = pending.subarray(skip);
        entry.skip -= skip;
        if (entry.skip > 0) break;
        await entry.sink?.end();
        entry = undefined;
      }
      if (pending.length < BLOCK) break;
      const block = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (block.every((byte) => byte === 0)) {
        finished = true;
        break;
      }
      const parsed = parseHeader(block);
      const sink = parsed.type === '0' ? await open({ name: parsed.name, size: parsed.size }) : undefined;
      entry = { sink, remaining: parsed.size, skip: (BLOCK - (parsed.size % BLOCK)) % BLOCK };
    }
  }
  if (entry || !finished) throw new Error('Not a complete backup archive (it ends too early)');
}
