import { Role } from '../auth/entities.ts';
import { defineController } from '../controllers/types.ts';
import { MANAGE_ADMINS } from './admins.ts';

const s = (key: string) => `backend::roles.${key}`;

/** `cms/backend/roles`: named sets of permissions (checkbox mode: a role only grants). */
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
});
