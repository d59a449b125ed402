/**
 * Media storage on S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, …) through the
 * official SDK. Objects live under `<bucket>/meditations/<key>`; the app still serves them through
 * its signed /media URLs, so the bucket stays private.
 */
import { readFile } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertSafeKey, type MediaStorage } from '#server/features/media/media-storage.ts';

export type S3Settings = { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: many S3-compatible stores reject the newer trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The readiness probe's own bound (the SDK would otherwise retry for longer). */
const CHECK_TIMEOUT_MS = 3000;

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null | undefined;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

export function createS3MediaStorage(client: S3Client, bucket: string, prefix = 'meditations/'): MediaStorage {
  const objectKey = (key: string) => {
    assertSafeKey(key);
    return `${prefix}${key}`;
  };
  return {
    async putFile(key, sourcePath) {
      // Uploads are at most 50 MB: sending a buffer keeps the request a plain signed PUT.
      const body = await readFile(sourcePath);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: body, ContentLength: body.length }));
      return { size: body.length, path: `s3://${bucket}/${objectKey(key)}` };
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return { size: head.ContentLength ?? 0, path: `s3://${bucket}/${objectKey(key)}` };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    read(key, range) {
      const out = new PassThrough();
      client
        .send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
        .then((result) => {
          const body = result.Body as Readable | undefined;
          if (!body) return out.end();
          body.on('error', (error) => out.destroy(error));
          body.pipe(out);
        })
        .catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
      return out;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
    async list() {
      const out: { key: string; size: number; modifiedAt: Date }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const item of page.Contents ?? []) {
          if (!item.Key) continue;
          out.push({ key: item.Key.slice(prefix.length), size: item.Size ?? 0, modifiedAt: item.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async check() {
      // Like HeadBucket (reachable, credentials valid, bucket exists), but also proves the List
      // permission the start-up sweep needs; one key at most, within a few seconds.
      await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1 }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    },
  };
}
