import { defineStrings } from '@cms/admin-core';

export const { s, table } = defineStrings('acme.events', {
  en: { 'permissions.manage': 'Manage events', 'settings.label': 'Events', 'settings.default_capacity': 'Default capacity' },
});
