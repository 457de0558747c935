import { definePlugin } from './plugins/define.ts';

/** `cms/backend`: the core's own plugin (admins and roles, and the permission that guards them). */
export const MANAGE_ADMINS = 'cms.backend.manage_admins';

export const backendPlugin = definePlugin({
  vendor: 'cms',
  name: 'backend',
  description: 'Administrators, roles and permissions',
  permissions: [{ code: MANAGE_ADMINS, label: 'backend::permissions.manage_admins', tab: 'backend::permissions.tab_system', order: 100 }],
  controllers: [
    { name: 'admins', permissions: [MANAGE_ADMINS] },
    { name: 'roles', permissions: [MANAGE_ADMINS] },
  ],
  navigation: [
    {
      code: 'system',
      label: 'backend::navigation.system',
      icon: 'icon-cog',
      order: 1000,
      sideMenu: [
        { code: 'admins', label: 'backend::navigation.admins', icon: 'icon-user', controller: 'cms/backend/admins', order: 100, permissions: [MANAGE_ADMINS] },
        { code: 'roles', label: 'backend::navigation.roles', icon: 'icon-users', controller: 'cms/backend/roles', order: 200, permissions: [MANAGE_ADMINS] },
      ],
    },
  ],
});
