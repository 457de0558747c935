import type { EntityManager } from '@mikro-orm/postgresql';
import { string } from 'yup';
import { hashPassword } from '../auth/passwords.ts';
import type { Principal } from '../auth/principal.ts';
import { Admin, Role } from '../auth/entities.ts';
import { defineController } from '../controllers/types.ts';
import { AdminError, Validation } from '../errors/index.ts';
import { checkAdminDelete, checkAdminSave, lockedRoles } from './privileges.ts';

export const MANAGE_ADMINS = 'cms.backend.manage_admins';
const EMAIL = string().required().email();
const s = (key: string) => `backend::admins.${key}`;

/** Another admin (soft-deleted ones included) uses `value` as its login or email. */
async function identityTaken(em: EntityManager, id: number | undefined, value: string): Promise<boolean> {
  const rows = await em.execute<Array<{ id: number }>>(
    'select id from cms_admins where id <> ? and (lower(email) = lower(?) or lower(login) = lower(?)) limit 1',
    [id ?? 0, value, value],
  );
  return rows.length > 0;
}

/**
 * Who a principal may manage: never soft-deleted admins, and superusers only for a superuser
 * (otherwise anyone who may manage admins could reset a superuser's password and sign in as one).
 */
const manageable = ({ principal }: { principal: Principal }) =>
  principal.admin.isSuperuser ? { deleted_at: null } : { deleted_at: null, is_superuser: false };

/**
 * `cms/backend/admins`. Soft-deleted admins are out of every scope but keep their login and
 * email reserved. Only a superuser may make or unmake superusers. A password is hashed in the
 * save; a change sets `tokens_valid_after`, so the admin's sessions end. Who may change whom, and
 * what a personal API token may not change: `privileges.ts` (docs/security.md).
 */
export const adminsController = defineController({
  name: 'admins',
  entity: Admin,
  permissions: [MANAGE_ADMINS],
  softDelete: 'deleted_at',
  scopes: { list: manageable, form: manageable },
  list: {
    title: s('title'),
    columns: {
      login: { label: s('login'), searchable: true, sortable: true },
      email: { label: s('email'), searchable: true, sortable: true },
      first_name: { label: s('first_name'), searchable: true, sortable: true },
      last_name: { label: s('last_name'), searchable: true, sortable: true },
      role: { label: s('role'), relation: 'role', select: 'name' },
      is_superuser: { label: s('is_superuser'), type: 'switch' },
    },
    defaultSort: { column: 'login', direction: 'asc' },
    filters: {
      role: {
        type: 'scope',
        label: s('role'),
        modelClass: 'Role',
        nameFrom: 'name',
        scope: (value) => (/^[1-9]\d{0,9}$/.test(value) ? { role: Number(value) } : { id: null }),
        scopeOptions: async ({ em }) =>
          (await em.find(Role, {}, { orderBy: { name: 'asc' } })).map((role) => ({ label: role.name, value: String(role.id) })),
      },
    },
    rowStates: (record) => (record.suspended_at ? ['disabled'] : []),
    rowStateColumns: ['suspended_at'],
  },
  form: {
    fields: {
      login: { type: 'text', label: s('login'), required: true, span: 'left' },
      email: { type: 'text', label: s('email'), required: true, span: 'right' },
      first_name: { type: 'text', label: s('first_name'), span: 'left' },
      last_name: { type: 'text', label: s('last_name'), span: 'right' },
      password: { type: 'password', label: s('password'), virtual: true, comment: s('password_comment') },
      role: { type: 'relation', label: s('role'), nameFrom: 'name', emptyOption: s('no_role'), lockedIds: lockedRoles },
      permissions: { type: 'permissioneditor', label: s('permissions'), mode: 'radio', tab: s('tab_permissions') },
      is_superuser: {
        type: 'dropdown',
        label: s('is_superuser'),
        options: { false: s('no'), true: s('yes') },
        default: false,
        tab: s('tab_permissions'),
      },
    },
  },
  hooks: {
    async beforeSave(record, ctx) {
      // First: an admin the principal may not touch learns nothing from the checks below.
      await checkAdminSave(ctx.mode === 'update' ? record.id : undefined, ctx);
      const { principal, em, mode, values, previous } = ctx;
      const details: Record<string, string[]> = {};
      const id = mode === 'update' ? record.id : undefined;
      if (values.login !== undefined && (await identityTaken(em, id, String(values.login)))) details.login = ['backend::validation.unique'];
      // The same rule as `PUT /account`: an admin signs in with this address.
      if (values.email !== undefined && !EMAIL.isValidSync(values.email)) details.email = ['backend::validation.email'];
      else if (values.email !== undefined && (await identityTaken(em, id, String(values.email))))
        details.email = ['backend::validation.unique'];
      if (mode === 'create' && typeof values.password !== 'string') details.password = ['backend::validation.required'];
      if (Object.keys(details).length) throw Validation(details);
      // `record` already holds the new value: compare with the stored one (a change, not a value, is refused).
      if (values.is_superuser !== undefined && !principal.admin.isSuperuser && values.is_superuser !== (previous?.is_superuser ?? false)) {
        throw new AdminError('forbidden', {
          messageKey: 'backend::admins.superuser_only',
          details: { is_superuser: ['backend::admins.superuser_only'] },
        });
      }
      if (typeof values.password === 'string') {
        record.password_hash = await hashPassword(values.password);
        if (mode === 'update') record.tokens_valid_after = new Date();
      }
    },
    async beforeDelete(record, ctx) {
      if (record.id === ctx.principal.admin.id) throw new AdminError('forbidden', { messageKey: 'backend::admins.no_self_delete' });
      await checkAdminDelete(record.id, ctx);
    },
  },
});
