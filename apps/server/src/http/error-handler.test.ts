import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../../test/support/test-database.js';
import { ManualClock } from '../adapters/clock.js';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { AppError } from './app-error.js';

describe('error handling', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ config: testConfig(), database, clock: new ManualClock() });
    const typed = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    typed.post(
      '/test/echo',
      {
        schema: {
          body: z.object({ name: z.string().min(3, 'Минимум 3 символа'), age: z.number() }),
        },
      },
      async (request) => ({ name: request.body.name }),
    );
    typed.get('/test/conflict', async () => {
      throw new AppError('conflict', 'Имя занято');
    });
    typed.get('/test/limited', async () => {
      throw new AppError('too_many_requests', 'Подождите', { retryAfter: 42.2 });
    });
    typed.get('/test/crash', async () => {
      throw new Error('secret internal detail at /srv/app.ts:10');
    });
    typed.get(
      '/test/leak',
      { schema: { response: { 200: z.object({ id: z.string() }) } } },
      async () => ({ id: 'x', passwordHash: 'must-not-leave' }) as { id: string },
    );
    typed.get('/test/db-down', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      });
    });
    // What a transaction whose connection died throws: its ROLLBACK fails too (system tests).
    typed.get('/test/db-rollback', async () => {
      throw new Error('Failed query: rollback', {
        cause: new Error('Client has encountered a connection error and is not queryable'),
      });
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers invalid input with 400, the schema messages and each field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/echo',
      payload: { name: 'ab', age: 'x' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.errors.name).toEqual(['Минимум 3 символа']);
    expect(body.errors.age[0]).toMatch(/ожидалось число/);
    expect(body.message).toBe('Минимум 3 символа');
  });

  it('answers broken JSON with 400 and a Russian message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Некорректный формат запроса' });
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/echo',
      payload: { name: 'x'.repeat(100_000), age: 1 },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'Слишком большой запрос' });
  });

  it('maps error codes to statuses and sends Retry-After', async () => {
    expect((await app.inject({ method: 'GET', url: '/test/conflict' })).statusCode).toBe(409);
    const limited = await app.inject({ method: 'GET', url: '/test/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('43');
  });

  it('hides the details of an unexpected failure', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.json()).toEqual({ message: 'Внутренняя ошибка сервера. Попробуйте позже.' });
  });

  it('never sends a field the response schema does not declare', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/leak' });
    expect(response.body).not.toContain('must-not-leave');
  });

  it('answers 503 when the database is unreachable', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/db-down' });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe('Сервис временно недоступен. Попробуйте позже.');
  });

  it('answers 503 when a transaction loses its connection and cannot even roll back', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/db-rollback' });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe('Сервис временно недоступен. Попробуйте позже.');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/authms/api/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Не найдено' });
  });
});
