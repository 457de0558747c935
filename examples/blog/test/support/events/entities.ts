import { defineEntity, p } from '@mikro-orm/core';

/** An event; its sessions are a hasMany relation (docs/plugin-guide.md, "The smallest complete plugin"). */
export const Event = defineEntity({
  name: 'AcmeEvent',
  tableName: 'acme_events_events',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    starts_at: p.datetime().nullable(),
    status: p.enum(['draft', 'published'] as const).default('draft'),
    capacity: p.integer().nullable(),
    sessions: () => p.oneToMany(Session).mappedBy('event'),
  },
});

export const Session = defineEntity({
  name: 'AcmeEventSession',
  tableName: 'acme_events_sessions',
  properties: {
    id: p.integer().primary(),
    event: () => p.manyToOne(Event).fieldName('event_id').nullable().deleteRule('cascade').index(),
    title: p.string().length(200),
  },
});
