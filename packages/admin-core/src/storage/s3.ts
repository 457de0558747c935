import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, type Storage } from './storage.ts';

/** Configuration of `S3Storage` (docs/files.md, "The S3 adapter"). */
export interface S3StorageConfig {
  /** The service's base URL (`https://s3.example.net`, `http://127.0.0.1:9000`); absent for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Addresses the bucket in the path (`<endpoint>/<bucket>/<key>`) instead of the host name; most self-hosted services need it. */
  forcePathStyle?: boolean;
  /** The base of public blob URLs (a CDN, a public bucket domain): `url(key)` is `<publicUrl>/<key>`. */
  publicUrl?: string;
  /** How long a signed URL stays valid when none is asked for (seconds, default 300, at most 7 days). */
  signedUrlSeconds?: number;
}

/** The longest validity S3's query-string signatures (SigV4) allow. */
const MAX_SIGNED_SECONDS = 7 * 24 * 3600;

/**
 * An S3-compatible object store (docs/files.md, "Storage" and "The S3 adapter"). Keys are checked
 * as on local disk; the content type is stored with the object. Public blobs are fetched from
 * `url(key)`, protected ones through short-lived `signedUrl(key)` links.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  readonly signedUrlSeconds: number;
  readonly #publicBase: string;

  constructor(config: S3StorageConfig) {
    const signedUrlSeconds = config.signedUrlSeconds ?? 300;
    assertSignedSeconds(signedUrlSeconds);
    const endpoint = config.endpoint?.replace(/\/+$/, '');
    this.bucket = config.bucket;
    this.signedUrlSeconds = signedUrlSeconds;
    this.client = new S3Client({
      region: config.region,
      credentials: config.credentials,
      forcePathStyle: config.forcePathStyle ?? false,
      ...(endpoint ? { endpoint } : {}),
      // Checksums only where an operation needs one: S3-compatible services differ in their
      // support for the newer checksum headers and aws-chunked uploads (docs/files.md).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.#publicBase = (
      config.publicUrl ??
      (endpoint
        ? `${endpoint}/${config.bucket}`
        : config.forcePathStyle
          ? `https://s3.${config.region}.amazonaws.com/${config.bucket}`
          : `https://${config.bucket}.s3.${config.region}.amazonaws.com`)
    ).replace(/\/+$/, '');
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: data,
        ContentType: contentType,
        ContentLength: data.length,
        ...disposition(contentType),
      }),
    );
  }

  /**
   * Streams the file in one PUT with its length known (S3 takes up to 5 GiB so). The SDK does not
   * retry a streamed body; a failed upload is an error for the caller.
   */
  async putFile(key: string, path: string, contentType: string): Promise<void> {
    assertSafeKey(key);
    const { size } = await stat(path);
    const body = createReadStream(path);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: size,
          ...disposition(contentType),
        }),
      );
    } finally {
      body.destroy();
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    assertSafeKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!answer.Body) return Buffer.alloc(0);
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** S3 answers a delete of a missing key with success; a service that says 404 is treated alike. */
  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  url(key: string): string {
    assertSafeKey(key);
    return `${this.#publicBase}/${key}`;
  }

  /** A presigned GET (SigV4 in the query string), valid `expiresInSeconds` from now. */
  async signedUrl(key: string, expiresInSeconds: number = this.signedUrlSeconds): Promise<string> {
    assertSafeKey(key);
    assertSignedSeconds(expiresInSeconds);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }
}

/** The types a browser may show from the bucket; the store keeps them as they are. */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Everything but the four image types is stored with `Content-Disposition: attachment`, so a
 * browser that opens it from the bucket downloads it instead of rendering it (a PDF, an HTML
 * file named `.txt`; docs/files.md, "The S3 adapter").
 */
const disposition = (contentType: string): { ContentDisposition?: string } =>
  INLINE_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase()) ? {} : { ContentDisposition: 'attachment' };

function assertSignedSeconds(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SIGNED_SECONDS) {
    throw new Error(`signed URL lifetime must be a whole number of seconds from 1 to ${MAX_SIGNED_SECONDS}, got ${seconds}`);
  }
}

/**
 * NoSuchKey (GET), NotFound (HEAD, which has no body to name the error) or another 404; a missing
 * bucket is a configuration error, not a missing blob.
 */
function isMissing(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}
