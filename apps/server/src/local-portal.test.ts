import { describe, expect, it } from 'vitest';
import { isLocalPortal } from './local-portal.js';

describe('a plainly local portal', () => {
  it.each([
    'http://localhost:3000',
    'http://LOCALHOST:3000/',
    'http://portal.localhost',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    // The URL parser reads this shorthand as 127.0.0.1.
    'http://127.1',
    'http://[::1]:3000',
  ])('%s is local', (url) => {
    expect(isLocalPortal(url)).toBe(true);
  });

  it.each([
    'https://portal.example.com',
    'http://localhost.example.com',
    'http://mylocalhost',
    'http://127.0.0.1.nip.io',
    'http://10.0.0.5',
    'http://192.168.1.10:3000',
    'http://0.0.0.0:3000',
    'http://[::2]',
    'http://128.0.0.1',
  ])('%s is not local', (url) => {
    expect(isLocalPortal(url)).toBe(false);
  });
});
