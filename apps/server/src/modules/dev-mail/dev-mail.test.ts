import { describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../../test/support/smtp-server.js';
import { createTestApp } from '../../../test/support/test-app.js';

const register = (email: string, username: string) => ({
  method: 'POST' as const,
  url: '/authms/api/Auth/register',
  payload: { email, password: 'Zx9-Plover-Harp', username, firstName: 'Вера', lastName: 'Н' },
});

describe('dev mailbox (no SMTP_URL)', () => {
  it('lists the letters newest first, with the code plain to see and no scripts', async () => {
    const { app, clock } = await createTestApp();
    await app.inject(register('first@example.com', 'first_one'));
    clock.advance(1_000);
    await app.inject(register('second@example.com', 'second_one'));

    const page = await app.inject({
      method: 'GET',
      url: '/dev/mail',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('Почта разработчика');
    expect(page.body.indexOf('second@example.com')).toBeLessThan(
      page.body.indexOf('first@example.com'),
    );

    const letters = (
      await app.inject({ method: 'GET', url: '/dev/mail/letters?to=SECOND@example.com' })
    ).json();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      to: 'second@example.com',
      subject: 'GameHost: код подтверждения регистрации',
      code: expect.stringMatching(/^\d{6}$/),
    });
    expect(page.body).toContain(`<strong class="code">${letters[0].code}</strong>`);
  });

  it('escapes what the letters hold', async () => {
    const { app } = await createTestApp();
    await app.deps.mail.enqueue({
      to: 'x@example.com',
      subject: '<img src=x onerror=alert(1)>',
      text: '<script>alert(1)</script>',
      html: '',
    });
    const page = await app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).toContain('&lt;script&gt;');
  });

  it('in production answers only this machine', async () => {
    const { app } = await createTestApp({ config: { NODE_ENV: 'production' } });
    expect(
      (await app.inject({ method: 'GET', url: '/dev/mail', remoteAddress: '127.0.0.1' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/dev/mail', remoteAddress: '203.0.113.9' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('dev mailbox with SMTP configured', () => {
  it('does not exist', async () => {
    const smtp = await startSmtpServer();
    const { app } = await createTestApp({ config: { SMTP_URL: smtp.url } });
    for (const url of ['/dev/mail', '/dev/mail/letters']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: 'Не найдено' });
    }
  });
});
