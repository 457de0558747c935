import { definePlugin } from '@cms/admin-core';
import { eventsController } from './controller.ts';
import { Event, Session } from './entities.ts';
import { eventsMigrations } from './migrations/index.ts';
import { eventsStrings, s } from './strings.ts';

/**
 * `acme/events`: the smallest complete plugin of docs/plugin-guide.md (an entity with a relation,
 * a generated migration, a controller with a list, a form, a relation manager and an action,
 * settings, strings with typed keys), tested with `@cms/admin-core/testing` only.
 */
export const eventsPlugin = definePlugin({
  vendor: 'acme',
  name: 'events',
  permissions: [{ code: 'acme.events.manage', label: s('permissions.manage') }],
  entities: [Event, Session],
  migrations: eventsMigrations,
  controllers: [eventsController],
  navigation: [{ code: 'events', label: s('navigation.events'), controller: 'acme/events/events', permissions: ['acme.events.manage'] }],
  settings: {
    events: {
      label: s('settings.label'),
      permissions: ['acme.events.manage'],
      form: { fields: { default_capacity: { type: 'number', label: s('settings.default_capacity'), min: 1 } } },
    },
  },
  strings: eventsStrings.table,
});
