import type { MigrationObject } from '@mikro-orm/core';
import { CoreInit } from './core-0001-init.ts';

/** The core's migrations, in order. Names are stable: they are recorded in `cms_migrations`. */
export const coreMigrations: MigrationObject[] = [{ name: 'cms.backend/0001-init', class: CoreInit }];
