import { isAbsolute, join, resolve } from 'node:path';
import { MIN_PASSWORD_LENGTH } from '@cms/admin-core';

/** The environment as the example app reads it (`process.env`, or a plain object in tests). */
export type Env = Record<string, string | undefined>;

/** Where the app keeps its data when `CMS_DATA_DIR` is unset: `examples/blog/.data` (git-ignored). */
export const DEFAULT_DATA_DIR = resolve(import.meta.dirname, '..', '.data');

export interface AppSettings {
  port: number;
  host: string;
  /** A PostgreSQL URL, or undefined for the embedded PostgreSQL under `dataDir/pglite`. */
  databaseUrl: string | undefined;
  /** Holds the embedded database, the stored files and the generated secret. */
  dataDir: string;
  production: boolean;
  /** `APP_SECRET`; undefined means "generate one and keep it under `dataDir`" (not in production). */
  secret: string | undefined;
  admin: { login: string; email: string; password: string | undefined };
  demoData: boolean;
  /** `TRUST_PROXY=1`: take the client address from `X-Forwarded-For` (Koa's `app.proxy`). */
  trustProxy: boolean;
  /**
   * `TYPESENSE_API_KEY`: the journal's `typesense_api_key` setting, passed to the admin through
   * `settings.env` (it then wins over a key stored in the admin, whose state shows `env`).
   */
  typesenseApiKey: string | undefined;
  /** `TYPESENSE_URL`: the journal's `typesense_url`; required with `TYPESENSE_API_KEY` (the key is bound to it). */
  typesenseUrl: string | undefined;
}

/** A start-up refusal caused by the environment: the message names the variable and the fix. */
export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

const MIN_SECRET_LENGTH = 32;

const flag = (value: string | undefined) => value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

/** Reads and checks every variable the example app understands. Unknown variables are ignored. */
export function readSettings(env: Env): AppSettings {
  const portText = nonEmpty(env.PORT) ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new EnvError(`PORT must be a port number from 0 to 65535, got "${portText}".`);
  const production = env.NODE_ENV === 'production';
  const secret = nonEmpty(env.APP_SECRET);
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
    throw new EnvError(`APP_SECRET must be at least ${MIN_SECRET_LENGTH} characters long. Generate one with \`openssl rand -base64 48\`.`);
  }
  if (secret === undefined && production) {
    throw new EnvError(
      'APP_SECRET is required when NODE_ENV=production: it seals the session tokens. Generate one with `openssl rand -base64 48`.',
    );
  }
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new EnvError('DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/cms.');
  }
  const password = nonEmpty(env.ADMIN_PASSWORD);
  if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
    throw new EnvError(`ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long (or leave it unset to have one generated).`);
  }
  const login = nonEmpty(env.ADMIN_LOGIN)?.trim() ?? 'admin';
  const email = nonEmpty(env.ADMIN_EMAIL)?.trim() ?? 'admin@example.com';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length < 6 || email.length > 255) {
    throw new EnvError(`ADMIN_EMAIL must be an email address of 6 to 255 characters, got "${email}".`);
  }
  if (login.length > 255) throw new EnvError('ADMIN_LOGIN may have at most 255 characters.');
  const dataDirText = nonEmpty(env.CMS_DATA_DIR);
  return {
    port,
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    databaseUrl,
    dataDir: dataDirText === undefined ? DEFAULT_DATA_DIR : isAbsolute(dataDirText) ? dataDirText : resolve(dataDirText),
    production,
    secret,
    admin: { login, email, password },
    demoData: flag(env.CMS_DEMO_DATA),
    trustProxy: flag(env.TRUST_PROXY),
    typesenseApiKey: nonEmpty(env.TYPESENSE_API_KEY),
    typesenseUrl: nonEmpty(env.TYPESENSE_URL),
  };
}

/** The places under the data directory. */
export const dataPaths = (dataDir: string) => ({
  pglite: join(dataDir, 'pglite'),
  storage: join(dataDir, 'storage'),
  secret: join(dataDir, 'app-secret'),
});
