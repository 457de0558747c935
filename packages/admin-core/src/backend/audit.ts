import { Admin } from '../auth/entities.ts';
import { AUDIT_ACTIONS } from '../audit/record.ts';
import { AuditEntry } from '../audit/entities.ts';
import { defineController } from '../controllers/types.ts';

export const VIEW_AUDIT = 'cms.backend.view_audit';
const s = (key: string) => `backend::audit.${key}`;
const shown = { readOnly: true } as const;

/**
 * `cms/backend/audit` (docs/audit.md): the audit log, newest first, read-only (no create, update
 * or delete route) for admins with `cms.backend.view_audit`. Rows are written by the operations
 * themselves, in the transaction of each write.
 */
export const auditController = defineController({
  name: 'audit',
  entity: AuditEntry,
  permissions: [VIEW_AUDIT],
  readOnly: true,
  list: {
    title: s('title'),
    columns: {
      created_at: { label: s('created_at'), type: 'datetime', sortable: true },
      actor: { label: s('actor'), searchable: true, sortable: true },
      action: { label: s('action'), sortable: true },
      target: { label: s('target'), searchable: true, sortable: true },
      record_id: { label: s('record_id') },
      detail: { label: s('detail'), searchable: true },
      fields: { label: s('fields') },
    },
    defaultSort: { column: 'created_at', direction: 'desc' },
    searchPrompt: s('search'),
    noRecordsMessage: s('empty'),
    showCheckboxes: false,
    toolbar: { buttons: [] },
    filters: {
      action: {
        type: 'group',
        label: s('action'),
        column: 'action',
        options: Object.fromEntries(AUDIT_ACTIONS.map((action) => [action, s(`action.${action}`)])),
      },
      admin: {
        type: 'scope',
        label: s('admin'),
        modelClass: 'Admin',
        nameFrom: 'login',
        scope: (value) => (/^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? { admin: Number(value) } : { id: null }),
        // Soft-deleted admins too: their rows stay in the log.
        scopeOptions: async ({ em }) =>
          (await em.find(Admin, {}, { fields: ['id', 'login'], orderBy: { login: 'asc' }, disableIdentityMap: true })).map((admin) => ({
            label: admin.login,
            value: String(admin.id),
          })),
      },
      created_at: { type: 'daterange', label: s('created_at'), column: 'created_at' },
    },
  },
  form: {
    fields: {
      created_at: { type: 'datepicker', label: s('created_at'), ...shown },
      actor: { type: 'text', label: s('actor'), span: 'left', ...shown },
      action: { type: 'text', label: s('action'), span: 'right', ...shown },
      target: { type: 'text', label: s('target'), span: 'left', ...shown },
      record_id: { type: 'number', label: s('record_id'), span: 'right', ...shown },
      detail: { type: 'text', label: s('detail'), ...shown },
      fields: { type: 'taglist', label: s('fields'), ...shown },
      request_id: { type: 'text', label: s('request_id'), span: 'left', ...shown },
      ip: { type: 'text', label: s('ip'), span: 'right', ...shown },
    },
  },
});
