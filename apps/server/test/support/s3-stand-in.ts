// A stand-in for an S3-compatible bucket that checks every request as S3 does: AWS Signature
// Version 4 over the canonical request (method, path, query, signed headers, payload hash), a
// known access key, a fresh x-amz-date, and a payload whose SHA-256 is the one signed. It
// answers S3's XML errors, keeps what is PUT and serves it back on GET.
// Reference: AWS "Signature Version 4 signing process" and "Authenticating Requests (AWS
// Signature Version 4)" of the Amazon S3 API reference.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface SignedRequest {
  method: string;
  /** Path and query as sent, e.g. `/bucket/key?x=1`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60_000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (S3 paths are not encoded twice). */
function encode(value: string, keepSlash: boolean): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, keepSlash ? '/' : '%2F');
}

function headerValue(value: string | string[] | undefined): string {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined.trim().replace(/\s+/g, ' ');
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; status: number; code: string; message: string };

/** Checks a request's SigV4 Authorization header against the bucket's credentials. */
export function checkSignature(
  request: SignedRequest,
  credentials: S3Credentials,
  now = new Date(),
): SignatureCheck {
  const refuse = (status: number, code: string, message: string): SignatureCheck => ({
    ok: false,
    status,
    code,
    message,
  });
  const authorization = headerValue(request.headers.authorization);
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return refuse(403, 'AccessDenied', 'Missing or malformed Authorization');
  const [, accessKeyId, date, region, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== credentials.accessKeyId) {
    return refuse(403, 'InvalidAccessKeyId', 'The AWS Access Key Id does not exist');
  }
  if (region !== credentials.region) {
    return refuse(400, 'AuthorizationHeaderMalformed', `Region ${region} is wrong`);
  }
  const signedHeaders = signedHeaderList!.split(';');
  if (!signedHeaders.includes('host')) {
    return refuse(403, 'AccessDenied', 'The host header must be signed');
  }
  const amzDate = headerValue(request.headers['x-amz-date']);
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || amzDate.slice(0, 8) !== date) {
    return refuse(403, 'AccessDenied', 'x-amz-date is missing or does not match the scope');
  }
  const signedAt = Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!);
  if (Math.abs(now.getTime() - signedAt) > MAX_SKEW_MS) {
    return refuse(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and now is too large',
    );
  }
  const payloadHash = headerValue(request.headers['x-amz-content-sha256']);
  if (!payloadHash) return refuse(400, 'InvalidRequest', 'Missing x-amz-content-sha256');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(request.body)) {
    return refuse(
      400,
      'XAmzContentSHA256Mismatch',
      'The provided x-amz-content-sha256 does not match',
    );
  }

  const url = new URL(request.url, 'http://bucket');
  const path = url.pathname
    .split('/')
    .map((segment) => encode(decodeURIComponent(segment), false))
    .join('/');
  const query = [...url.searchParams]
    .map(([name, value]) => [encode(name, false), encode(value, false)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${headerValue(request.headers[name])}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    path,
    query,
    canonicalHeaders,
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date!), region!), 's3'),
    'aws4_request',
  );
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  if (expected !== signature) {
    return refuse(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match',
    );
  }
  return { ok: true };
}

export interface S3StandIn {
  endpoint: string;
  /** Objects by `/<bucket>/<key>`. */
  objects: Map<string, { body: Buffer; contentType: string | undefined }>;
  /** Every request, accepted or not. */
  requests: SignedRequest[];
  /** Makes every request fail with this status (S3 having a bad day); null to stop. */
  failWith: number | null;
  close(): Promise<void>;
}

function answerError(response: ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

export async function startS3StandIn(credentials: S3Credentials): Promise<S3StandIn> {
  const standIn: S3StandIn = {
    endpoint: '',
    objects: new Map(),
    requests: [],
    failWith: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((incoming: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: SignedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      standIn.requests.push(request);
      if (standIn.failWith) {
        return answerError(
          response,
          standIn.failWith,
          'InternalError',
          'We encountered an internal error',
        );
      }
      const check = checkSignature(request, credentials);
      if (!check.ok) return answerError(response, check.status, check.code, check.message);
      const path = new URL(request.url, 'http://bucket').pathname;
      if (request.method === 'PUT') {
        standIn.objects.set(path, {
          body: request.body,
          contentType: headerValue(request.headers['content-type']) || undefined,
        });
        response.writeHead(200, { etag: `"${sha256(request.body).slice(0, 32)}"` });
        return response.end();
      }
      if (request.method === 'DELETE') {
        // As S3: 204 whether or not there was an object.
        standIn.objects.delete(path);
        response.writeHead(204);
        return response.end();
      }
      const object = standIn.objects.get(path);
      if (request.method === 'GET' && object) {
        response.writeHead(200, {
          'content-type': object.contentType ?? 'application/octet-stream',
        });
        return response.end(object.body);
      }
      answerError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
