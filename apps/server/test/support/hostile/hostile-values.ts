import fc from 'fast-check';

/** Strings an attacker or a broken client sends: injections, markup, odd Unicode, number look-alikes. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '   \t\n',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(10)--',
  "') UNION SELECT password_hash FROM users--",
  '$1',
  '%',
  '\\',
  '\\x00',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\uFEFF',
  '\u202Eexe.gnp',
  '😀👍🏽',
  'Иван',
  'ё'.repeat(20),
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, on purpose.
  '${7*7}',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '0x1F',
  '-1',
  '0',
  '0.5',
  '100000000000000000000000',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  'https://evil.example.com/',
  '//evil.example.com',
  'http://127.0.0.1:6379/',
  'user@example.com\r\nBcc: victim@example.com',
  'a@b',
  '@',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-000000000000',
  '123456',
  '000000',
  '99999999999999999999',
];

/** Lengths around the limits: columns, the 64 KiB body limit, the 200-character path parameter. */
const LONG_LENGTHS = [17, 33, 65, 129, 201, 255, 256, 1_000, 10_000, 70_000];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom('a', 'я', '<', "'", '😀'))
      .map(([length, unit]) => unit.repeat(length)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 10 }))
      .map(([fragment, rest]) => `${rest}${fragment}${rest}`),
  },
);

/** Amounts and counts nobody should accept blindly: negative, fractional, huge, precision traps. */
const HOSTILE_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  0.01,
  0.001,
  0.1 + 0.2,
  1e-7,
  1.005,
  9.999,
  99.995,
  10.5,
  499.999,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/**
 * Number-like tokens written into the JSON text itself: JSON.parse reads `1e400` as Infinity,
 * `-0` as -0 and a long integer with lost precision; the others are not JSON at all.
 */
const RAW_JSON_TOKENS = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '123456789012345678901234567890',
  '0.1e1',
  '1E2',
  'NaN',
  'Infinity',
  'undefined',
  '0x10',
  '01',
  '+1',
  '.5',
  '1.',
  '"\\ud800"',
  '"\\u0000"',
  '[]',
  '{}',
  'null',
  'true',
  '"1000"',
  '[1000]',
  '{"$gt":""}',
];

/** Keys that reach for prototypes or look like operators. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '$where',
  '$gt',
  'a.b',
  'a[b]',
  '',
  ' ',
  'userId',
  'id',
  'balance',
  'balanceKopecks',
  'isAdmin',
  'role',
  'status',
  'amount',
  'email',
];

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Any JSON value built from the pieces above, nested a little. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: hostileString },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: objectWith(hostileKey, tie('value'), 3) },
  ),
})).value;

/**
 * An object with own properties from `key` (including "__proto__", set as an own property, the
 * way JSON.parse would, not through the prototype setter).
 */
export function objectWith(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<unknown>,
  maxKeys: number,
): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.tuple(key, value), { maxLength: maxKeys }).map((entries) => {
    const object: Record<string, unknown> = {};
    for (const [name, item] of entries) {
      Object.defineProperty(object, name, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  });
}

/** Byte sequences that are not UTF-8: lone continuation bytes, overlong forms, surrogates, > U+10FFFF. */
const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0x80],
  [0xc3],
  [0xc3, 0x28],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
].map((bytes) => Buffer.from(bytes));

/** Request bodies that are not the JSON a client would send. */
export function rawBodies(fieldNames: string[]): fc.Arbitrary<string | Buffer> {
  const field = fieldNames.length > 0 ? fc.constantFrom(...fieldNames) : hostileKey;
  return fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      'null',
      'true',
      '0',
      '-1',
      '"a string"',
      '[]',
      '{',
      '{"a":',
      '{"a":1,}',
      "{'a':1}",
      '{"a":1}{"b":2}',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
      '{"a":{"__proto__":{"polluted":1}}}',
      '\uFEFF{}',
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
      'email=a%40b.c&password=x',
      '--boundary\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nxx\r\n--boundary--',
    ),
    // Deep nesting, up to what fits under the body limit.
    fc
      .tuple(fc.constantFrom(10, 100, 1_000, 10_000, 30_000), fc.boolean())
      .map(([depth, asObjects]) =>
        asObjects
          ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
          : `${'['.repeat(depth)}${']'.repeat(depth)}`,
      ),
    // A field whose value is a raw token (and, being last, wins over an earlier one).
    fc
      .tuple(field, fc.constantFrom(...RAW_JSON_TOKENS))
      .map(([name, token]) => `{${JSON.stringify(name)}:${token}}`),
    // Invalid UTF-8 inside a JSON string.
    fc
      .tuple(field, fc.constantFrom(...INVALID_UTF8), fc.string({ maxLength: 5 }))
      .map(([name, bytes, text]) =>
        Buffer.concat([
          Buffer.from(`{${JSON.stringify(name)}:"${text.replaceAll(/["\\]/g, '')}`),
          bytes,
          Buffer.from('"}'),
        ]),
      ),
    // Invalid UTF-8 as the whole body.
    fc.constantFrom(...INVALID_UTF8),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  );
}

/** Content types a careless or hostile client sends. */
export const CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=boundary',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/merge-patch+json',
  'application/jsonx',
  'json',
  '*/*',
  ';',
  '',
];

/** Printable bytes only: a real HTTP parser refuses control characters in headers before us. */
export function asHeaderValue(value: string): string {
  return [...value]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return char;
      return '?';
    })
    .join('')
    .slice(0, 8_000);
}

export const hostileHeaderValue: fc.Arbitrary<string> = hostileString.map(asHeaderValue);

/** Path segments that are not ids: traversal, bad escapes, lengths past the router's limit. */
const RAW_PATH_SEGMENTS = [
  '%',
  '%zz',
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%00',
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '-1',
  '0',
  '1.5',
  '1e400',
  'NaN',
  'null',
  '%20',
  '%F0%9F%98%80',
  'a'.repeat(199),
  'a'.repeat(201),
  '9'.repeat(19),
  '9'.repeat(300),
];

export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
  // Well-formed UTF-8 only: a lone surrogate cannot be percent-encoded.
  {
    weight: 2,
    arbitrary: hostileString
      .map((value) => value.slice(0, 300).replaceAll(/[\uD800-\uDFFF]/g, ''))
      .filter((value) => value.length > 0)
      .map(encodeURIComponent),
  },
);
