import { createHash } from 'node:crypto';
import { STORAGE_UNAVAILABLE } from '@portal/contracts/messages';
import { AppError } from '../http/app-error.js';
import { assertKey, type FileStorage, STORED_KEY_PATTERN } from './storage.js';

export interface S3Settings {
  /** e.g. https://storage.yandexcloud.net or http://127.0.0.1:9000 (path-style requests). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where browsers read the objects, e.g. https://cdn.example.com/avatars; no trailing slash. */
  publicUrl: string;
  /** Key prefix inside the bucket. */
  prefix: string;
}

/**
 * The bucket did not take the file (unreachable, refusing, failing): the upload answers the
 * Russian 503 and nothing is recorded; the reason goes to the log, not to the person.
 */
function storageUnavailable(reason: string, cause?: unknown): AppError {
  const error = new AppError('unavailable', STORAGE_UNAVAILABLE);
  error.cause = new Error(reason, { cause });
  return error;
}

/**
 * S3-compatible object storage (AWS, Yandex Object Storage, MinIO): one signed PUT per file.
 * The signing library is loaded on first use, so a portal on a local directory never loads it.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3';
  private client: Promise<import('aws4fetch').AwsClient> | undefined;

  constructor(private readonly settings: S3Settings) {}

  async put(key: string, body: Buffer, contentType: string): Promise<string> {
    assertKey(key);
    const client = await this.loadClient();
    const objectKey = `${this.settings.prefix}${key}`;
    const url = `${this.settings.endpoint.replace(/\/+$/, '')}/${this.settings.bucket}/${objectKey}`;
    const response = await client
      .fetch(url, {
        method: 'PUT',
        body: new Uint8Array(body),
        headers: {
          'Content-Type': contentType,
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
          // Signed payload, not UNSIGNED-PAYLOAD: the bucket checks the bytes it stores.
          'X-Amz-Content-Sha256': createHash('sha256').update(body).digest('hex'),
        },
      })
      .catch((error: unknown) => {
        throw storageUnavailable(`S3 PUT ${objectKey} failed: ${(error as Error).message}`, error);
      });
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 300);
      throw storageUnavailable(`S3 PUT ${objectKey} answered ${response.status}: ${detail}`);
    }
    return `${this.settings.publicUrl.replace(/\/+$/, '')}/${objectKey}`;
  }

  async remove(key: string): Promise<void> {
    assertKey(key);
    const client = await this.loadClient();
    const objectKey = `${this.settings.prefix}${key}`;
    const url = `${this.settings.endpoint.replace(/\/+$/, '')}/${this.settings.bucket}/${objectKey}`;
    const response = await client.fetch(url, { method: 'DELETE' }).catch((error: unknown) => {
      throw storageUnavailable(`S3 DELETE ${objectKey} failed: ${(error as Error).message}`, error);
    });
    // 204 when deleted, and also when there was nothing to delete.
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 300);
      throw storageUnavailable(`S3 DELETE ${objectKey} answered ${response.status}: ${detail}`);
    }
  }

  keyOf(address: string): string | null {
    const prefix = `${this.settings.publicUrl.replace(/\/+$/, '')}/${this.settings.prefix}`;
    if (!address.startsWith(prefix)) return null;
    const key = address.slice(prefix.length);
    return STORED_KEY_PATTERN.test(key) ? key : null;
  }

  private loadClient() {
    this.client ??= import('aws4fetch').then(
      ({ AwsClient }) =>
        new AwsClient({
          accessKeyId: this.settings.accessKeyId,
          secretAccessKey: this.settings.secretAccessKey,
          region: this.settings.region,
          service: 's3',
          retries: 2,
        }),
    );
    return this.client;
  }
}
