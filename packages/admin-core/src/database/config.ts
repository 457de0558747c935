import type { PGlite } from '@electric-sql/pglite';

/**
 * Where the data lives. A PostgreSQL server by URL (production, CI's second run), or the
 * embedded PostgreSQL (PGlite) served over the wire protocol to the very same driver, so that
 * entities, migrations and SQL are identical in both modes.
 */
export type DatabaseConfig =
  | {
      url: string;
      /** Pool size; defaults to 10. */
      poolSize?: number;
      /** Run pending migrations when the admin starts (default true). */
      migrate?: boolean;
    }
  | {
      embedded: {
        /** Persistent data directory; omitted means in memory (gone when closed). */
        dataDir?: string;
        /** An already opened PGlite instance (the caller closes it). */
        pglite?: PGlite;
      };
      migrate?: boolean;
    };

export const isEmbedded = (config: DatabaseConfig): config is Extract<DatabaseConfig, { embedded: unknown }> => 'embedded' in config;
