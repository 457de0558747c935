import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR, EnvError, readSettings } from '../../src/env.ts';

describe('readSettings', () => {
  it('has the documented defaults', () => {
    expect(readSettings({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: DEFAULT_DATA_DIR,
      production: false,
      secret: undefined,
      admin: { login: 'admin', email: 'admin@example.com', password: undefined },
      demoData: false,
      trustProxy: false,
      typesenseApiKey: undefined,
      typesenseUrl: undefined,
    });
  });

  it('keeps the default data directory inside the example, git-ignored as .data', () => {
    expect(DEFAULT_DATA_DIR).toBe(resolve(import.meta.dirname, '../..', '.data'));
  });

  it('reads every variable', () => {
    const settings = readSettings({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/cms',
      CMS_DATA_DIR: 'var/cms',
      NODE_ENV: 'production',
      APP_SECRET: 'x'.repeat(32),
      ADMIN_LOGIN: ' root ',
      ADMIN_EMAIL: 'root@example.org',
      ADMIN_PASSWORD: 'long enough',
      CMS_DEMO_DATA: '1',
      TRUST_PROXY: 'true',
      TYPESENSE_API_KEY: 'ts-key',
      TYPESENSE_URL: 'http://127.0.0.1:8108',
    });
    expect(settings).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/cms',
      production: true,
      demoData: true,
      trustProxy: true,
      typesenseApiKey: 'ts-key',
      typesenseUrl: 'http://127.0.0.1:8108',
    });
    expect(settings.dataDir).toBe(resolve('var/cms'));
    expect(settings.admin).toEqual({ login: 'root', email: 'root@example.org', password: 'long enough' });
  });

  it('treats empty variables as unset', () => {
    expect(readSettings({ PORT: '', APP_SECRET: '', ADMIN_PASSWORD: '', DATABASE_URL: ' ', TYPESENSE_API_KEY: '' })).toMatchObject({
      port: 3000,
      secret: undefined,
      databaseUrl: undefined,
      typesenseApiKey: undefined,
    });
  });

  it.each([
    [{ PORT: 'http' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ PORT: '-1' }, /PORT must be a port number/],
    [{ NODE_ENV: 'production' }, /APP_SECRET is required when NODE_ENV=production/],
    [{ APP_SECRET: 'too short' }, /APP_SECRET must be at least 32 characters/],
    [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD must be at least 8 characters/],
    [{ ADMIN_EMAIL: 'nope' }, /ADMIN_EMAIL must be an email address/],
    [{ DATABASE_URL: 'mysql://localhost/cms' }, /DATABASE_URL must be a PostgreSQL URL/],
  ])('refuses %o', (env, message) => {
    expect(() => readSettings(env)).toThrow(EnvError);
    expect(() => readSettings(env)).toThrow(message);
  });
});
