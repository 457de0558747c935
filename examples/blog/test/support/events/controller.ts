import { defineController } from '@cms/admin-core';
import { Event } from './entities.ts';

export const eventsController = defineController({
  name: 'events',
  entity: Event,
  permissions: ['acme.events.manage'],
  list: {
    columns: [{ title: { searchable: true, sortable: true }, starts_at: { sortable: true } }, 'venue', 'is_public'],
    filters: { is_public: {} },
    defaultSort: { column: 'starts_at', direction: 'asc' },
  },
  form: {
    fields: [
      'title',
      { slug: { preset: { field: 'title', type: 'slug' } } },
      'starts_at',
      { ends_at: { after: 'starts_at' }, capacity: { min: 1, max: 10000 } },
      'is_public',
      'venue',
      { poster: { type: 'fileupload', mode: 'image', maxFiles: 1 }, speakers: {} },
    ],
  },
  relations: {
    speakers: { view: { list: { columns: ['name'] }, toolbarButtons: ['create', 'update', 'delete'] }, manageForm: { fields: ['name'] } },
  },
  duplicate: { values: { slug: (slug) => `${slug}-copy`, is_public: false }, children: ['speakers'] },
  hooks: {
    // A new event without a capacity takes the default of the settings.
    beforeSave: async (event, ctx) => {
      if (ctx.mode === 'create' && event.capacity == null) event.capacity = Number((await ctx.settings('events')).default_capacity) || null;
    },
  },
});
