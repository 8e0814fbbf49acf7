import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/test-app.js';

describe('health and readiness', () => {
  it('answers /health while the process is up', async () => {
    const { app } = await createTestApp();
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /ready 200 with the database up and 503 with it gone', async () => {
    const { app, database } = await createTestApp();
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const ping = database.ping;
    database.ping = async () => {
      throw new Error('down');
    };
    const down = await app.inject({ method: 'GET', url: '/ready' });
    database.ping = ping;
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toBe('База данных недоступна');
  });
});
