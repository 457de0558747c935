import { defineEntity, p } from '@mikro-orm/core';

export const Event = defineEntity({
  name: 'AcmeEvent',
  tableName: 'acme_events_events',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    slug: p.string().length(200).unique(),
    starts_at: p.datetime(),
    ends_at: p.datetime(),
    capacity: p.integer().nullable(),
    is_public: p.boolean().default(false),
    venue: p.string().length(200).nullable(),
    speakers: () => p.oneToMany(Speaker).mappedBy('event'),
  },
});

export const Speaker = defineEntity({
  name: 'AcmeEventSpeaker',
  tableName: 'acme_events_speakers',
  properties: {
    id: p.integer().primary(),
    event: () => p.manyToOne(Event).nullable().deleteRule('cascade').index(),
    name: p.string().length(200),
  },
});
