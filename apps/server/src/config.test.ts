import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('configuration', () => {
  it('fills defaults for a fresh machine and keeps a generated secret', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SECRET_KEY).toBe(readFileSync(path.join(dataDir, 'secret.key'), 'utf8'));
    expect(loadConfig({ DATA_DIR: dataDir }).SECRET_KEY).toBe(config.SECRET_KEY);
  });

  it('lets the brand sites receive hand-offs unless a list is given', () => {
    const defaults = loadConfig({
      DATA_DIR: dataDir,
      HOSTING_URL: 'https://host.example.org/panel',
    });
    expect(defaults.SSO_ALLOWED_ORIGINS).toEqual([
      'https://host.example.org',
      'https://launcher.example.com',
    ]);
    const explicit = loadConfig({
      DATA_DIR: dataDir,
      SSO_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
    });
    expect(explicit.SSO_ALLOWED_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
  });

  it('takes sibling keys only for known sites, at distinct origins', () => {
    const key = 'k'.repeat(24);
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: dataDir, ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problemsOf({ SIBLING_API_KEYS: `hosting:${key},launcher:${key}` })).toEqual([]);
    expect(problemsOf({ SIBLING_API_KEYS: `shop:${key}` })[0]).toContain(
      'ожидается имя:ключ, где имя — hosting или launcher',
    );
    const sameOrigin = {
      HOSTING_URL: 'https://brand.example/hosting',
      LAUNCHER_URL: 'https://brand.example/launcher',
    };
    expect(problemsOf({ ...sameOrigin, SIBLING_API_KEYS: `hosting:${key}` })).toEqual([]);
    expect(
      problemsOf({ ...sameOrigin, SIBLING_API_KEYS: `hosting:${key},launcher:${key}` }),
    ).toEqual(['HOSTING_URL, LAUNCHER_URL: у сайтов с ключами API должны быть разные origin']);
  });

  it('takes a metrics token of at least 24 characters; an empty one is none', () => {
    const token = 't'.repeat(24);
    expect(loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN: нужно не меньше 24 символов',
    );
  });

  it('takes the staff approval threshold in whole roubles, 1 000 by default, 0 for every amount', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).STAFF_APPROVAL_ROUBLES).toBe(1000);
    expect(
      loadConfig({ DATA_DIR: dataDir, STAFF_APPROVAL_ROUBLES: '0' }).STAFF_APPROVAL_ROUBLES,
    ).toBe(0);
    for (const wrong of ['-1', '10.5', 'тысяча']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, STAFF_APPROVAL_ROUBLES: wrong })).toThrow(
        `STAFF_APPROVAL_ROUBLES: ожидается целое число рублей, 0 или больше (сейчас «${wrong}»)`,
      );
    }
  });

  it('lists every wrong setting at once, in Russian', () => {
    try {
      loadConfig({ DATA_DIR: dataDir, PORT: '70000', DATABASE_URL: 'not a url' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const { problems } = error as ConfigError;
      expect(problems).toHaveLength(2);
      expect(problems[0]).toContain('PORT: ожидается номер порта от 0 до 65535 (сейчас «70000»)');
      expect(problems[1]).toContain('DATABASE_URL');
    }
  });

  it('refuses a T-Bank terminal without its key or its password', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: dataDir, ...env });
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
    };
    expect(problemsOf({ PAYMENT_PROVIDER: 'tbank' })).toEqual([
      'TBANK_TERMINAL_KEY: нужен для PAYMENT_PROVIDER=tbank',
      'TBANK_PASSWORD: нужен вместе с TBANK_TERMINAL_KEY',
    ]);
    expect(problemsOf({ TBANK_TERMINAL_KEY: 'Terminal' })).toEqual([
      'TBANK_PASSWORD: нужен вместе с TBANK_TERMINAL_KEY',
    ]);
    expect(problemsOf({ TBANK_TERMINAL_KEY: 'Terminal', TBANK_PASSWORD: 'secret' })).toEqual([]);
    // The sandbox asked for by name does not use the terminal, so a half-set one does not matter.
    expect(problemsOf({ PAYMENT_PROVIDER: 'sandbox', TBANK_TERMINAL_KEY: 'Terminal' })).toEqual([]);
    expect(problemsOf({ PUBLIC_URL: 'https://lk.example.com' })).toEqual([]);
  });
});

describe('OIDC_CLIENTS', () => {
  const secret = 's'.repeat(40);
  const problemsOf = (value: string) => {
    try {
      loadConfig({ DATA_DIR: dataDir, OIDC_CLIENTS: value });
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('reads the clients with the standard defaults', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      OIDC_CLIENTS: JSON.stringify([
        { client_id: 'hosting', client_secret: secret, redirect_uris: ['https://h.example/cb'] },
        {
          client_id: 'launcher',
          application_type: 'native',
          token_endpoint_auth_method: 'none',
          redirect_uris: ['http://127.0.0.1/callback'],
          grant_types: ['authorization_code', 'refresh_token'],
        },
      ]),
    });
    expect(config.OIDC_CLIENTS).toMatchObject([
      {
        client_id: 'hosting',
        application_type: 'web',
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { client_id: 'launcher', application_type: 'native' },
    ]);
    expect(loadConfig({ DATA_DIR: dataDir }).OIDC_CLIENTS).toEqual([]);
  });

  it('says one line per mistake, naming its place and never the secrets', () => {
    expect(problemsOf('{not json')).toEqual(['OIDC_CLIENTS: ожидается JSON-массив клиентов']);
    expect(problemsOf('{}')).toEqual(['OIDC_CLIENTS: ожидается JSON-массив клиентов']);
    const problems = problemsOf(
      JSON.stringify([
        { client_id: 'hosting', client_secret: secret, redirect_uris: ['not a url'] },
        { client_id: 'hosting', redirect_uris: ['https://h.example/cb'], colour: 'red' },
        {
          client_id: 'tv',
          token_endpoint_auth_method: 'none',
          client_secret: secret,
          grant_types: ['password'],
        },
      ]),
    );
    expect(problems).toEqual([
      'OIDC_CLIENTS.0.redirect_uris.0: ожидается адрес (URL)',
      'OIDC_CLIENTS.1: неизвестное поле «colour»',
      'OIDC_CLIENTS.1.client_secret: нужен секрет, или token_endpoint_auth_method: none для приложения без секрета',
      'OIDC_CLIENTS.2.grant_types.0: ожидается одно из: authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code',
    ]);
    expect(problems.join('\n')).not.toContain(secret);
    expect(
      problemsOf(
        JSON.stringify([
          {
            client_id: 'tv',
            token_endpoint_auth_method: 'none',
            client_secret: secret,
            redirect_uris: ['https://t.example/cb'],
          },
          { client_id: 'tv2', token_endpoint_auth_method: 'none', grant_types: ['refresh_token'] },
          {
            client_id: 'tv3',
            token_endpoint_auth_method: 'none',
            redirect_uris: ['https://t.example/cb'],
          },
        ]),
      ),
    ).toEqual([
      'OIDC_CLIENTS.0.client_secret: у клиента с token_endpoint_auth_method: none секрета нет',
    ]);
    expect(
      problemsOf(
        JSON.stringify([
          {
            client_id: 'tv',
            token_endpoint_auth_method: 'none',
            redirect_uris: ['https://t.example/cb'],
          },
          {
            client_id: 'tv',
            token_endpoint_auth_method: 'none',
            redirect_uris: ['https://t.example/cb'],
          },
        ]),
      ),
    ).toEqual(['OIDC_CLIENTS.1.client_id: client_id «tv» уже есть выше']);
  });
});
