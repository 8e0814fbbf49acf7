import type { Config } from '../config.js';
import { type FileStorage, LocalFileStorage } from './storage.js';
import { S3FileStorage } from './storage-s3.js';

/** S3-compatible storage when S3_ENDPOINT is set (config checks the rest), else UPLOAD_DIR. */
export function createFileStorage(config: Config): FileStorage {
  if (config.S3_ENDPOINT && config.S3_BUCKET && config.S3_PUBLIC_URL) {
    return new S3FileStorage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? '',
      publicUrl: config.S3_PUBLIC_URL,
      prefix: config.S3_PREFIX,
    });
  }
  return new LocalFileStorage(config.UPLOAD_DIR, config.PUBLIC_URL);
}
