import type { StringTable } from '../i18n/strings.ts';

/** Strings of the settings page (namespace `backend`), and of the core's own link entries. */
export const settingsStrings: StringTable = {
  en: {
    'settings.category.misc': 'Miscellaneous',
    'settings.category.system': 'System',
    'settings.admins.label': 'Administrators',
    'settings.admins.description': 'Manage the administrators who can sign in, and their permissions.',
    'settings.roles.label': 'Administrator roles',
    'settings.roles.description': 'Manage roles: sets of permissions shared by administrators.',
    'settings.keywords.users': 'users',
    'settings.keywords.permissions': 'permissions',
    'settings.keywords.roles': 'roles',
  },
  de: {
    'settings.category.misc': 'Sonstiges',
    'settings.category.system': 'System',
    'settings.admins.label': 'Administratoren',
    'settings.admins.description': 'Administratoren verwalten, die sich anmelden können, und ihre Berechtigungen.',
    'settings.roles.label': 'Administratorrollen',
    'settings.roles.description': 'Rollen verwalten: Berechtigungen, die sich Administratoren teilen.',
    'settings.keywords.users': 'Benutzer',
    'settings.keywords.permissions': 'Berechtigungen',
    'settings.keywords.roles': 'Rollen',
  },
};
