import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STORAGE_UNAVAILABLE } from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { jpegImageWithExif, pngClaimingSize, pngImage } from '../../../test/support/images.js';
import { type FilePart, multipartBody } from '../../../test/support/multipart-body.js';
import { startS3StandIn } from '../../../test/support/s3-stand-in.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { S3FileStorage } from '../../adapters/storage-s3.js';
import { AVATAR_LIMITS, AVATAR_MESSAGES } from './avatar-image.js';
import { UPLOAD_RATE_LIMIT } from './routes.js';
import { uploads } from './schema.js';

const uploadDir = mkdtempSync(path.join(tmpdir(), 'portal-uploads-'));
const testApp = await createTestApp({ config: { UPLOAD_DIR: uploadDir } });
const { app, config } = testApp;

async function upload(headers: Record<string, string>, ...parts: FilePart[]) {
  const body = multipartBody(parts);
  return app.inject({
    method: 'POST',
    url: '/upload',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const png = (body: Buffer, filename = 'avatar.png'): FilePart => ({
  filename,
  contentType: 'image/png',
  body,
});

describe('/upload', () => {
  it('stores a PNG re-encoded as a square under a generated name and serves it', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const response = await upload(headers, png(await pngImage(300, 200)));
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: string }>();
    expect(data).toMatch(new RegExp(`^${config.PUBLIC_URL}/uploads/[0-9a-f]{32}\\.png$`));

    const [row] = await testApp.database.db.select().from(uploads).where(eq(uploads.address, data));
    expect(row?.userId).toBe(user.id);

    const served = await app.inject({ method: 'GET', url: new URL(data).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([
      'png',
      AVATAR_LIMITS.sidePx,
      AVATAR_LIMITS.sidePx,
    ]);
  });

  it('re-encodes a JPEG and strips its metadata', async () => {
    const { headers } = await createSignedInUser(testApp);
    const original = await jpegImageWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes('SecretCam')).toBe(true);

    const response = await upload(headers, {
      filename: 'photo.jpeg',
      contentType: 'image/jpeg',
      body: original,
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: string }>();
    expect(data).toMatch(/\.jpg$/);
    const served = await app.inject({ method: 'GET', url: new URL(data).pathname });
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes('SecretCam')).toBe(false);
  });

  it('judges the type by the bytes: a text file named .png is refused', async () => {
    const { headers } = await createSignedInUser(testApp);
    const before = readdirSync(uploadDir).length;
    const response = await upload(headers, png(Buffer.from('just some text, not an image\n')));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: AVATAR_MESSAGES.wrongType,
      errors: { file: [AVATAR_MESSAGES.wrongType] },
    });
    expect(readdirSync(uploadDir).length).toBe(before);
  });

  it('refuses an SVG, whatever type the client claims', async () => {
    const { headers } = await createSignedInUser(testApp);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    for (const part of [
      { filename: 'a.svg', contentType: 'image/svg+xml', body: svg },
      { filename: 'a.png', contentType: 'image/png', body: svg },
    ]) {
      const response = await upload(headers, part);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(AVATAR_MESSAGES.wrongType);
    }
  });

  it('refuses a file over the size limit with 413', async () => {
    const { headers } = await createSignedInUser(testApp);
    const big = Buffer.concat([await pngImage(10, 10), Buffer.alloc(AVATAR_LIMITS.maxBytes)]);
    const response = await upload(headers, png(big));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(AVATAR_MESSAGES.tooLarge);
  });

  it('refuses a 50,000 × 50,000 PNG from its header, without decoding it', async () => {
    const { headers } = await createSignedInUser(testApp);
    const bomb = pngClaimingSize(50_000, 50_000);
    expect(bomb.length).toBeLessThan(AVATAR_LIMITS.maxBytes);
    const started = performance.now();
    const response = await upload(headers, png(bomb));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(AVATAR_MESSAGES.tooManyPixels);
    // Decoding 2.5 gigapixels would take minutes and gigabytes; the bound is loose for busy CI.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('re-encodes a polyglot (PNG with HTML appended), so the payload is not served', async () => {
    const { headers } = await createSignedInUser(testApp);
    const polyglot = Buffer.concat([
      await pngImage(64, 64),
      Buffer.from('<html><script>alert(document.domain)</script></html>'),
    ]);
    const response = await upload(headers, png(polyglot, 'polyglot.html'));
    expect(response.statusCode).toBe(200);
    const served = await app.inject({
      method: 'GET',
      url: new URL(response.json().data).pathname,
    });
    expect(served.rawPayload.includes('<script>')).toBe(false);
    expect(served.headers['content-type']).toBe('image/png');
  });

  it('refuses HTML that carries a PNG inside (the bytes do not start as an image)', async () => {
    const { headers } = await createSignedInUser(testApp);
    const polyglot = Buffer.concat([Buffer.from('<html><!--'), await pngImage(8, 8)]);
    const response = await upload(headers, png(polyglot));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(AVATAR_MESSAGES.wrongType);
  });

  it('refuses a PNG signature in front of JPEG data, and a broken image', async () => {
    const { headers } = await createSignedInUser(testApp);
    const jpeg = await jpegImageWithExif(20, 20);
    const mixed = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      jpeg,
    ]);
    expect((await upload(headers, png(mixed))).statusCode).toBe(400);
    const truncated = (await pngImage(200, 200)).subarray(0, 60);
    const response = await upload(headers, png(truncated));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(AVATAR_MESSAGES.unreadable);
  });

  it('ignores a path in the file name: nothing is written outside the upload directory', async () => {
    const { headers } = await createSignedInUser(testApp);
    const response = await upload(headers, png(await pngImage(32, 32), '../../../etc/evil.png'));
    expect(response.statusCode).toBe(200);
    const key = new URL(response.json().data).pathname.split('/').pop();
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(readdirSync(uploadDir)).toContain(key);
    expect(readdirSync(path.dirname(uploadDir)).some((name) => name === 'evil.png')).toBe(false);
    expect(readdirSync(uploadDir).every((name) => /^[0-9a-f]{32}\.(png|jpg)$/.test(name))).toBe(
      true,
    );
  });

  it('needs a session, a multipart body and the `file` field', async () => {
    const anonymous = await upload({}, png(await pngImage(8, 8)));
    expect(anonymous.statusCode).toBe(401);

    const { headers } = await createSignedInUser(testApp);
    const json = await app.inject({
      method: 'POST',
      url: '/upload',
      headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(AVATAR_MESSAGES.noFile);

    const wrongField = await upload(headers, { ...png(await pngImage(8, 8)), field: 'image' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe(AVATAR_MESSAGES.noFile);
  });

  it('limits uploads per user', async () => {
    const { headers } = await createSignedInUser(testApp);
    const image = await pngImage(8, 8);
    for (let index = 0; index < UPLOAD_RATE_LIMIT.limit; index++) {
      expect((await upload(headers, png(image))).statusCode).toBe(200);
    }
    const refused = await upload(headers, png(image));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const other = await createSignedInUser(testApp);
    expect((await upload(other.headers, png(image))).statusCode).toBe(200);
  });

  it('serves only generated names', async () => {
    for (const url of ['/uploads/..%2Fsecret.key', '/uploads/abc.png', '/uploads/index.html']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('/upload to an S3 bucket', async () => {
  const credentials = {
    accessKeyId: 'AKIDUPLOADS',
    secretAccessKey: 'uploads-secret',
    region: 'ru-central1',
  };
  const bucket = await startS3StandIn(credentials);
  afterAll(() => bucket.close());
  const settings = {
    endpoint: bucket.endpoint,
    bucket: 'avatars',
    ...credentials,
    publicUrl: 'https://cdn.example.com/avatars',
    prefix: 'a/',
  };
  const s3App = await createTestApp({ storage: new S3FileStorage(settings) });
  const s3Upload = (headers: Record<string, string>, part: FilePart) => {
    const body = multipartBody([part]);
    return s3App.app.inject({
      method: 'POST',
      url: '/upload',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const rowsOf = (userId: string) =>
    s3App.database.db.select().from(uploads).where(eq(uploads.userId, userId));

  it('stores the image in the bucket, signed as the bucket checks', async () => {
    const { user, headers } = await createSignedInUser(s3App);
    const response = await s3Upload(headers, png(await pngImage(64, 64)));
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: string }>();
    expect(data).toMatch(/^https:\/\/cdn\.example\.com\/avatars\/a\/[0-9a-f]{32}\.png$/);
    expect(bucket.objects.has(`/avatars/a/${data.split('/').at(-1)}`)).toBe(true);
    expect(await rowsOf(user.id)).toHaveLength(1);
  });

  it('answers the Russian 503 and records nothing when the bucket fails or is unreachable', async () => {
    const { user, headers } = await createSignedInUser(s3App);
    bucket.failWith = 503;
    const objectsBefore = bucket.objects.size;
    const failing = await s3Upload(headers, png(await pngImage(64, 64)));
    bucket.failWith = null;
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toEqual({ message: STORAGE_UNAVAILABLE });

    const unreachableApp = await createTestApp({
      storage: new S3FileStorage({ ...settings, endpoint: 'http://127.0.0.1:1' }),
    });
    const signedIn = await createSignedInUser(unreachableApp);
    const body = multipartBody([png(await pngImage(64, 64))]);
    const unreachable = await unreachableApp.app.inject({
      method: 'POST',
      url: '/upload',
      headers: { ...signedIn.headers, ...body.headers },
      payload: body.payload,
    });
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.json()).toEqual({ message: STORAGE_UNAVAILABLE });

    expect(bucket.objects.size).toBe(objectsBefore);
    expect(await rowsOf(user.id)).toHaveLength(0);
    expect(
      await unreachableApp.database.db
        .select()
        .from(uploads)
        .where(eq(uploads.userId, signedIn.user.id)),
    ).toHaveLength(0);
  });
});
