import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, testConfig } from '../config.js';
import { registerSecurityHeaders } from '../http/security-headers.js';
import { createFileStorage, LocalFileStorage } from './storage.js';
import { S3FileStorage } from './storage-s3.js';

// A stand-in for an S3-compatible bucket: keeps what is PUT and the headers it came with.
const received: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
let failWith: number | null = null;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks),
    });
    response.writeHead(failWith ?? 200);
    response.end(failWith ? '<Error><Code>AccessDenied</Code></Error>' : '');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const settings = {
  endpoint,
  bucket: 'portal-avatars',
  region: 'ru-central1',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  publicUrl: 'https://cdn.example.com/portal-avatars',
  prefix: 'avatars/',
};
const key = `${'a1'.repeat(16)}.png`;

describe('S3FileStorage', () => {
  it('PUTs the object with a SigV4 signature and answers its public address', async () => {
    const storage = new S3FileStorage(settings);
    const address = await storage.put(key, Buffer.from('png-bytes'), 'image/png');
    expect(address).toBe(`https://cdn.example.com/portal-avatars/avatars/${key}`);
    const request = received.at(-1)!;
    expect(request.method).toBe('PUT');
    expect(request.url).toBe(`/portal-avatars/avatars/${key}`);
    expect(request.body.toString()).toBe('png-bytes');
    expect(request.headers['content-type']).toBe('image/png');
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ru-central1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
    );
    expect(request.headers['x-amz-content-sha256']).toBe(
      createHash('sha256').update('png-bytes').digest('hex'),
    );
  });

  it('knows only its own addresses', () => {
    const storage = new S3FileStorage(settings);
    expect(storage.keyOf(`https://cdn.example.com/portal-avatars/avatars/${key}`)).toBe(key);
    expect(storage.keyOf(`https://cdn.example.com/portal-avatars/other/${key}`)).toBeNull();
    expect(storage.keyOf('https://cdn.example.com/portal-avatars/avatars/../x.png')).toBeNull();
    expect(storage.keyOf(`https://evil.example/portal-avatars/avatars/${key}`)).toBeNull();
  });

  it('fails loudly when the bucket refuses, and never writes a key it did not generate', async () => {
    const storage = new S3FileStorage(settings);
    failWith = 403;
    await expect(storage.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow(/403/);
    failWith = null;
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
    app.get('/', async () => 'ok');
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(String(response.headers['content-security-policy'])).toContain(
      "img-src 'self' data: blob: https://cdn.example.com",
    );
    await app.close();
  });
});
