import { definePlugin } from './plugins/define.ts';
import { adminsController, MANAGE_ADMINS } from './backend/admins.ts';
import { rolesController } from './backend/roles.ts';
import { auditController, VIEW_AUDIT } from './backend/audit.ts';
import { yesNoAssets, yesNoFieldTypes } from './fields/yes-no.ts';

/** `cms/backend`: the core's own plugin (admins, roles and the audit log, and the permissions that guard them). */
export { MANAGE_ADMINS };

export const backendPlugin = definePlugin({
  vendor: 'cms',
  name: 'backend',
  description: 'Administrators, roles and permissions',
  permissions: [
    { code: MANAGE_ADMINS, label: 'backend::permissions.manage_admins', tab: 'backend::permissions.tab_system', order: 100 },
    { code: VIEW_AUDIT, label: 'backend::permissions.view_audit', tab: 'backend::permissions.tab_system', order: 110 },
  ],
  controllers: [adminsController, rolesController, auditController],
  // The core's yes/no field types, registered like any plugin's (docs/field-types.md, "switch and checkbox").
  assets: yesNoAssets,
  fieldTypes: yesNoFieldTypes,
  navigation: [
    {
      code: 'system',
      label: 'backend::navigation.system',
      icon: 'icon-cog',
      order: 1000,
      sideMenu: [
        {
          code: 'admins',
          label: 'backend::navigation.admins',
          icon: 'icon-user',
          controller: 'cms/backend/admins',
          order: 100,
          permissions: [MANAGE_ADMINS],
        },
        {
          code: 'roles',
          label: 'backend::navigation.roles',
          icon: 'icon-users',
          controller: 'cms/backend/roles',
          order: 200,
          permissions: [MANAGE_ADMINS],
        },
        {
          code: 'audit',
          label: 'backend::navigation.audit',
          icon: 'icon-history',
          controller: 'cms/backend/audit',
          order: 300,
          permissions: [VIEW_AUDIT],
        },
      ],
    },
  ],
  // Link entries: the settings page lists them next to the plugins' settings forms.
  settings: {
    admins: {
      label: 'backend::settings.admins.label',
      description: 'backend::settings.admins.description',
      category: 'backend::settings.category.system',
      icon: 'icon-user',
      keywords: ['backend::settings.keywords.users', 'backend::settings.keywords.permissions'],
      order: 900,
      permissions: [MANAGE_ADMINS],
      controller: 'cms/backend/admins',
    },
    roles: {
      label: 'backend::settings.roles.label',
      description: 'backend::settings.roles.description',
      category: 'backend::settings.category.system',
      icon: 'icon-users',
      keywords: ['backend::settings.keywords.roles', 'backend::settings.keywords.permissions'],
      order: 910,
      permissions: [MANAGE_ADMINS],
      controller: 'cms/backend/roles',
    },
    audit: {
      label: 'backend::settings.audit.label',
      description: 'backend::settings.audit.description',
      category: 'backend::settings.category.system',
      icon: 'icon-history',
      keywords: ['backend::settings.keywords.audit', 'backend::settings.keywords.history'],
      order: 920,
      permissions: [VIEW_AUDIT],
      controller: 'cms/backend/audit',
    },
  },
});
