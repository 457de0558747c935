import { Role } from '../auth/entities.ts';
import { defineController } from '../controllers/types.ts';
import { MANAGE_ADMINS } from './admins.ts';
import { checkRoleDelete, checkRoleSave } from './privileges.ts';

const s = (key: string) => `backend::roles.${key}`;

/**
 * `cms/backend/roles`: named sets of permissions (checkbox mode: a role only grants). A role is
 * changed or deleted only by someone who holds all it grants; a personal API token neither
 * creates nor deletes one, nor changes what it grants: `privileges.ts` (docs/security.md).
 */
export const rolesController = defineController({
  name: 'roles',
  entity: Role,
  permissions: [MANAGE_ADMINS],
  list: {
    title: s('title'),
    columns: {
      code: { label: s('code'), searchable: true, sortable: true },
      name: { label: s('name'), searchable: true, sortable: true },
    },
    defaultSort: { column: 'name', direction: 'asc' },
  },
  form: {
    fields: {
      code: { type: 'text', label: s('code'), required: true, span: 'left' },
      name: { type: 'text', label: s('name'), required: true, span: 'right' },
      description: { type: 'textarea', label: s('description') },
      permissions: { type: 'permissioneditor', label: s('permissions'), mode: 'checkbox' },
    },
  },
  hooks: {
    beforeSave: (record, ctx) => checkRoleSave(ctx.mode === 'update' ? record.id : undefined, ctx),
    beforeDelete: (record, ctx) => checkRoleDelete(record.id, ctx),
  },
});
