import type { ThrottleConfig } from '../auth/throttle.ts';
import type { DatabaseConfig } from '../database/config.ts';
import type { PluginDeclaration } from '../plugins/declaration.ts';
import type { ResolvedSettingsEnv } from './settings-env.ts';
import type { SuperuserInput } from '../auth/superuser.ts';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The checked configuration with its defaults, frozen: plain data is a frozen deep copy, `plugins`
 * a frozen list of the host's definitions; `logger` and class instances are the host's own.
 * `resolveConfig` (and `AdminCore.config`) keep the plugins as `PluginDefinition`s; the services
 * see them as `PluginDeclaration`s, which do not name the request context.
 */
export interface ResolvedConfig<Plugin extends PluginDeclaration = PluginDeclaration> {
  readonly prefix: string;
  readonly apiBase: string;
  readonly cookieSecure: boolean;
  readonly production: boolean;
  readonly database: DatabaseConfig;
  readonly secret: string;
  readonly locales: readonly string[];
  readonly fallbackLocale: string;
  readonly plugins: readonly Plugin[];
  readonly sessionTtlSeconds: number;
  /** Session cache max age (docs/auth.md, "Session cache"); 0: no cache. */
  readonly sessionCacheSeconds: number;
  readonly formSessionMaxAgeSeconds: number;
  /** Pending upload bytes per admin (docs/files.md, "Pending uploads"). */
  readonly formSessionMaxPendingBytes: number;
  /** Deferred child creations per form session key (docs/relations.md, "Limits"). */
  readonly formSessionMaxCreated: number;
  /** Unfiltered list totals at this many estimated rows or more are estimates (docs/performance.md, "Counts"). */
  readonly exactCountLimit: number;
  /** List count cache max age (docs/performance.md, "The count cache"); 0: no cache. */
  readonly countCacheSeconds: number;
  readonly throttle: Readonly<ThrottleConfig>;
  readonly themes: readonly string[];
  /** Who may read the OpenAPI document (docs/openapi.md). */
  readonly openapi: 'public' | 'authenticated' | false;
  readonly logger: Logger;
  /** Env-supplied settings secrets by code and field (unset ones dropped). */
  readonly settingsEnv: ResolvedSettingsEnv;
  /** The checked `bootstrap.superuser`, created at start-up while no admin exists (docs/host-guide.md, "The first superuser"). */
  readonly bootstrapSuperuser: Readonly<SuperuserInput> | undefined;
  /** The admin application's build folder as an absolute path, `false` for none, undefined for `@cms/admin-ui` when installed. */
  readonly ui: false | { readonly dir: string } | undefined;
}
