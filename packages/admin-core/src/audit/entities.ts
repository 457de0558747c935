import { defineEntity, p } from '@mikro-orm/core';
import { Admin } from '../auth/entities.ts';

/**
 * One row of the audit log (table `cms_audit`, migration `cms.backend/0003-audit`, docs/audit.md):
 * who (`admin`, and `actor`, the login as it was, or the identifier of a failed login), when, what
 * (`action`, `detail`), on what (`target`, `record_id`) and which fields changed (names only:
 * no value of any field is ever written here).
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'cms_audit',
  properties: {
    id: p.integer().primary(),
    created_at: p.datetime().onCreate(() => new Date()),
    admin: () => p.manyToOne(Admin).fieldName('admin_id').nullable().deleteRule('set null'),
    actor: p.string().length(255),
    action: p.string().length(32),
    target: p.string().length(255),
    record_id: p.integer().nullable(),
    detail: p.string().length(255),
    fields: p.json<string[]>().onCreate(() => []),
    request_id: p.string().length(64).nullable(),
    ip: p.string().length(64).nullable(),
  },
});

export const auditEntities = [AuditEntry];
