import { createHash } from 'node:crypto';
import { STORAGE_UNAVAILABLE } from '@portal/contracts/messages';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSignature, startS3StandIn } from '../../test/support/s3-stand-in.js';
import { ConfigError, loadConfig, testConfig } from '../config.js';
import { AppError } from '../http/app-error.js';
import { registerSecurityHeaders } from '../http/security-headers.js';
import { createFileStorage } from './create-file-storage.js';
import { LocalFileStorage } from './storage.js';
import { S3FileStorage } from './storage-s3.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'ru-central1',
};
const bucket = await startS3StandIn(credentials);
afterAll(() => bucket.close());
const endpoint = bucket.endpoint;

const settings = {
  endpoint,
  bucket: 'portal-avatars',
  ...credentials,
  publicUrl: 'https://cdn.example.com/portal-avatars',
  prefix: 'avatars/',
};
const key = `${'a1'.repeat(16)}.png`;

describe('the S3 stand-in checks signatures as S3 does', () => {
  it('accepts the example request of the S3 API reference ("GET Object")', () => {
    const check = checkSignature(
      {
        method: 'GET',
        url: '/test.txt',
        body: Buffer.alloc(0),
        headers: {
          host: 'examplebucket.s3.amazonaws.com',
          range: 'bytes=0-9',
          'x-amz-content-sha256': createHash('sha256').update('').digest('hex'),
          'x-amz-date': '20130524T000000Z',
          authorization:
            'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
            'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
            'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
        },
      },
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
      },
      new Date('2013-05-24T00:01:00Z'),
    );
    expect(check).toEqual({ ok: true });
  });

  it('refuses a request whose signed parts were changed', async () => {
    const storage = new S3FileStorage(settings);
    await storage.put(key, Buffer.from('png-bytes'), 'image/png');
    const signed = bucket.requests.at(-1)!;
    const tampered = [
      { ...signed, url: signed.url.replace('avatars/', 'other/') },
      { ...signed, headers: { ...signed.headers, 'cache-control': 'no-cache' } },
      { ...signed, method: 'DELETE' },
    ];
    for (const request of tampered) {
      expect(checkSignature(request, credentials)).toMatchObject({ code: 'SignatureDoesNotMatch' });
    }
    expect(checkSignature({ ...signed, body: Buffer.from('other') }, credentials)).toMatchObject({
      code: 'XAmzContentSHA256Mismatch',
    });
    expect(checkSignature(signed, credentials, new Date(Date.now() + 20 * 60_000))).toMatchObject({
      code: 'RequestTimeTooSkewed',
    });
  });
});

describe('S3FileStorage', () => {
  it('PUTs the object with a SigV4 signature the bucket accepts, and answers its public address', async () => {
    const storage = new S3FileStorage(settings);
    const address = await storage.put(key, Buffer.from('png-bytes'), 'image/png');
    expect(address).toBe(`https://cdn.example.com/portal-avatars/avatars/${key}`);
    const stored = bucket.objects.get(`/portal-avatars/avatars/${key}`);
    expect(stored?.body.toString()).toBe('png-bytes');
    expect(stored?.contentType).toBe('image/png');
    expect(bucket.requests.at(-1)!.headers['x-amz-content-sha256']).toBe(
      createHash('sha256').update('png-bytes').digest('hex'),
    );
  });

  it('DELETEs an object with a signed request, and a missing one is no error', async () => {
    const storage = new S3FileStorage(settings);
    await storage.put(key, Buffer.from('png-bytes'), 'image/png');
    await storage.remove(key);
    expect(bucket.objects.has(`/portal-avatars/avatars/${key}`)).toBe(false);
    expect(bucket.requests.at(-1)!.method).toBe('DELETE');
    await storage.remove(key);
  });

  it('knows only its own addresses', () => {
    const storage = new S3FileStorage(settings);
    expect(storage.keyOf(`https://cdn.example.com/portal-avatars/avatars/${key}`)).toBe(key);
    expect(storage.keyOf(`https://cdn.example.com/portal-avatars/other/${key}`)).toBeNull();
    expect(storage.keyOf('https://cdn.example.com/portal-avatars/avatars/../x.png')).toBeNull();
    expect(storage.keyOf(`https://evil.example/portal-avatars/avatars/${key}`)).toBeNull();
  });

  it('answers the Russian 503 when the bucket refuses, fails or cannot be reached', async () => {
    const wrongSecret = new S3FileStorage({ ...settings, secretAccessKey: 'not-the-secret' });
    const failing = new S3FileStorage(settings);
    const unreachable = new S3FileStorage({ ...settings, endpoint: 'http://127.0.0.1:1' });
    for (const [storage, failWith] of [
      [wrongSecret, null],
      [failing, 500],
      [unreachable, null],
    ] as const) {
      bucket.failWith = failWith;
      const error = await storage.put(key, Buffer.from('x'), 'image/png').catch((e) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error.statusCode).toBe(503);
      expect(error.message).toBe(STORAGE_UNAVAILABLE);
    }
    bucket.failWith = null;
  });

  it('never writes a key it did not generate', async () => {
    const storage = new S3FileStorage(settings);
    await expect(storage.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow();
  });
});

describe('choosing the storage', () => {
  it('uses the local directory by default and S3 when configured', () => {
    expect(createFileStorage(testConfig({ UPLOAD_DIR: '/tmp/x' }))).toBeInstanceOf(
      LocalFileStorage,
    );
    const s3 = testConfig({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PUBLIC_URL: 'https://cdn.example.com/b',
    });
    expect(createFileStorage(s3)).toBeInstanceOf(S3FileStorage);
  });

  it('refuses to start with half of the S3 settings', () => {
    expect(() =>
      loadConfig({ S3_ENDPOINT: endpoint, S3_BUCKET: 'b', SECRET_KEY: 'k'.repeat(32) }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ S3_ENDPOINT: endpoint, SECRET_KEY: 'k'.repeat(32) });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'S3_BUCKET: нужен вместе с S3_ENDPOINT',
        'S3_ACCESS_KEY_ID: нужен вместе с S3_ENDPOINT',
        'S3_SECRET_ACCESS_KEY: нужен вместе с S3_ENDPOINT',
        'S3_PUBLIC_URL: нужен вместе с S3_ENDPOINT',
      ]);
    }
  });

  it('lets the page load avatars from the bucket’s public origin (CSP img-src)', async () => {
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    registerSecurityHeaders(app, testConfig({ S3_PUBLIC_URL: 'https://cdn.example.com/b' }));
    app.get('/', async (_request, reply) => reply.type('text/html').send('<p>ok</p>'));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(String(response.headers['content-security-policy'])).toContain(
      "img-src 'self' data: blob: https://cdn.example.com",
    );
    await app.close();
  });
});
