import { defineStrings } from '@cms/admin-core';

export const eventsStrings = defineStrings('acme.events', {
  en: {
    'permissions.manage': 'Manage events',
    'navigation.events': 'Events',
    'events.title': 'Events',
    'events.name': 'Title',
    'events.starts_at': 'Starts',
    'events.status': 'Status',
    'events.capacity': 'Capacity',
    'events.sessions': 'Sessions',
    'events.publish': 'Publish',
    'settings.label': 'Events',
    'settings.default_capacity': 'Default capacity',
  },
  de: {
    'permissions.manage': 'Veranstaltungen verwalten',
    'navigation.events': 'Veranstaltungen',
    'events.title': 'Veranstaltungen',
    'events.name': 'Titel',
    'events.starts_at': 'Beginn',
    'events.status': 'Status',
    'events.capacity': 'Plätze',
    'events.sessions': 'Programmpunkte',
    'events.publish': 'Veröffentlichen',
    'settings.label': 'Veranstaltungen',
    'settings.default_capacity': 'Plätze (Vorgabe)',
  },
});

export const { s } = eventsStrings;
