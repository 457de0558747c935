import { definePlugin } from '@cms/admin-core';
import { eventsController } from './controller.ts';
import { Event, Speaker } from './entities.ts';
import { eventsMigrations } from './migrations/index.ts';
import { s, table } from './strings.ts';

export const eventsPlugin = definePlugin({
  vendor: 'acme',
  name: 'events',
  permissions: [{ code: 'acme.events.manage', label: s('permissions.manage') }],
  entities: [Event, Speaker],
  migrations: eventsMigrations,
  controllers: [eventsController],
  settings: {
    events: {
      label: s('settings.label'),
      permissions: ['acme.events.manage'],
      form: { fields: { default_capacity: { type: 'number', label: s('settings.default_capacity'), min: 1, max: 10000 } } },
    },
  },
  strings: table,
});
