import type { MigrationObject } from '@mikro-orm/core';
import { EventsInit } from './0001-init.ts';

/** The plugin's migrations, in order, each generated with `migration:create` (docs/plugin-guide.md). */
export const eventsMigrations: MigrationObject[] = [{ name: 'acme.events/0001-init', class: EventsInit }];
