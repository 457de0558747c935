import { defineController } from '@cms/admin-core';
import { Event } from './entities.ts';
import { s } from './strings.ts';

export const eventsController = defineController({
  name: 'events',
  entity: Event,
  permissions: ['acme.events.manage'],
  list: {
    title: s('events.title'),
    columns: {
      title: { label: s('events.name'), searchable: true, sortable: true },
      starts_at: { label: s('events.starts_at'), type: 'datetime', sortable: true },
      status: { label: s('events.status') },
    },
    defaultSort: { column: 'starts_at', direction: 'desc' },
  },
  form: {
    fields: {
      title: { type: 'text', label: s('events.name'), required: true },
      starts_at: { type: 'datepicker', label: s('events.starts_at'), mode: 'datetime' },
      capacity: { type: 'number', label: s('events.capacity'), min: 1, max: 10000 },
      sessions: { type: 'relation-manager', label: s('events.sessions'), relation: 'sessions' },
    },
  },
  relations: {
    sessions: {
      view: { list: { columns: { title: { label: s('events.name'), searchable: true } } } },
      manageForm: { fields: { title: { type: 'text', label: s('events.name'), required: true } } },
    },
  },
  actions: {
    record: {
      publish: {
        label: s('events.publish'),
        appliesTo: (event) => event.status !== 'published',
        run: (event) => void (event.status = 'published'),
      },
    },
  },
});
