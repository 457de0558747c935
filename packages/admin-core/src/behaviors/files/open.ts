import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { hasPermissions } from '../../auth/permissions.ts';
import { lockOwner, type BindingOwner } from '../../bindings/store.ts';
import { checkSessionKey } from '../../bindings/session-key.ts';
import { Forbidden, NotFound, Validation } from '../../errors/index.ts';
import { MAX_ID } from '../../http/params.ts';
import { scopeCondition } from '../list/conditions.ts';
import { checkFieldAccess, type FieldAccess } from '../form/field-access.ts';
import { fileFieldNamed, type FileField } from './field.ts';
import { listFiles } from './items.ts';

/** The files of one field of one record: what every file operation names (docs/files.md, "Calling the operations from code"). */
export interface FilesInput {
  /** The record; 0 for a record not saved yet, which needs `sessionKey`. */
  id: number;
  /** A `fileupload` field of the controller. */
  field: string;
  /** The form's session key (`X-Session-Key` over HTTP): uploads and removals wait for its save. */
  sessionKey?: string;
}

/** One file of the field. */
export interface FileInput extends FilesInput {
  fileId: number;
}

/** One operation's files: the controller, the field, the record (0 before its first save) and, under a session key, whose. */
export interface FileTarget {
  controller: ResolvedController;
  file: FileField;
  parentId: number;
  owner?: BindingOwner;
}

const isId = (value: number, zero: boolean) => Number.isSafeInteger(value) && value >= (zero ? 0 : 1) && value <= MAX_ID;

/**
 * The open step of every file operation, in the order the HTTP route has always answered: the
 * controller's permissions (403; the route table checks them too, a code caller gets the same),
 * a write to a read-only controller (404, it has no such route), the field (404), the record id (404), the field's `context` and `readOnly` (403 naming it), the
 * session key (422), then the record through the controller's form scope (share-locked in a
 * transaction); out of scope is 404.
 */
export async function openFiles(
  controller: ResolvedController,
  input: FilesInput,
  access: FieldAccess,
  ctx: OperationContext,
  em: EntityManager = ctx.em(),
): Promise<FileTarget> {
  if (!hasPermissions(ctx.principal, controller.permissions)) throw Forbidden();
  // A read-only controller has no write routes (docs/controllers.md, "Read-only controllers"): 404 as over HTTP.
  if (access === 'write' && controller.config.readOnly === true) throw NotFound();
  const file = fileFieldNamed(controller, input.field);
  const parentId = input.id;
  if (!isId(parentId, true)) throw NotFound();
  checkFieldAccess(file.field, parentId, access, ctx);
  const key = input.sessionKey;
  if (key !== undefined) checkSessionKey(key, 'X-Session-Key', ctx.t);
  if (parentId === 0 && key === undefined) throw Validation({ 'X-Session-Key': [ctx.t('backend::validation.required')] });
  if (parentId !== 0) {
    const scope = await scopeCondition(controller, 'form', ctx.scope(em));
    const found = await em.findOne(controller.meta.class, (scope ? { $and: [{ id: parentId }, scope] } : { id: parentId }) as never, {
      fields: ['id'] as never,
      // Writes lock the record: two uploads into an attachOne field of one record run one after the other.
      ...(em.isInTransaction() ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
    });
    if (!found) throw NotFound();
  }
  const owner =
    key === undefined ? undefined : { sessionKey: key, adminId: ctx.principal.admin.id, controller: controller.address, parentId };
  // A write locks the key before any file row, as the save does (docs/files.md, "Pending uploads").
  if (owner && em.isInTransaction()) await lockOwner(em, owner);
  return { controller, file, parentId, ...(owner ? { owner } : {}) };
}

/** The field's files as the target's admin sees them, in `sort_order` (`lock`: for update). */
export const listOf = (target: FileTarget, em: EntityManager, lock = false) =>
  listFiles(
    em,
    { controller: target.controller.address, field: target.file.name, parentId: target.parentId, owner: target.owner },
    { lock },
  );

/** The file an input names among the field's files as the admin sees them (locked in a transaction); else 404. */
export async function findFile(target: FileTarget, fileId: number, em: EntityManager) {
  if (!isId(fileId, false)) throw NotFound();
  const row = (await listOf(target, em, em.isInTransaction())).find((file) => file.id === fileId);
  if (!row) throw NotFound();
  return row;
}
