import type { MigrationObject } from '@mikro-orm/core';
import { EventsInit } from './0001-init.ts';

export const eventsMigrations: MigrationObject[] = [{ name: 'acme.events/0001-init', class: EventsInit }];
