import { extname } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { principalAdminId } from '../../auth/principal.ts';
import { recordAudit } from '../../audit/record.ts';
import { flushAfterCommit } from '../../context/after-commit.ts';
import type { OperationContext } from '../../context/operation.ts';
import type { ActionFile, ActionFileInput, ActionFiles, ActionRecordRef } from '../../controllers/action-config.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { Validation } from '../../errors/index.ts';
import { isRecordId } from '../../http/params.ts';
import { newBlobKey } from '../../storage/storage.ts';
import { fileFieldOf, fileFields, type FileField } from '../files/field.ts';
import { fileItem, listFiles, type FileRow } from '../files/items.ts';
import { dropFiles } from '../files/outbox.ts';
import { prepareBlob } from '../files/prepare.ts';

/*
 * `ctx.files` of an action (docs/actions.md, "Files"): the files of the action's controller, read
 * and written through the action's entity manager. Blobs are written before their rows, as an
 * upload's are; the store remembers the keys it wrote, so that `actionTransaction` deletes them
 * again when the transaction rolls back (or an earlier attempt of it was run again), and the
 * outbox of the blobs it replaced, flushed once the transaction has committed (docs/files.md, "Saves").
 */

/** One attempt's file writes: blob keys written, outbox ids to flush after the commit. */
export class ActionFileStore implements ActionFiles {
  readonly written: string[] = [];
  readonly outbox: number[] = [];
  readonly #controller: ResolvedController;
  readonly #em: EntityManager;
  readonly #ctx: OperationContext;
  /** Without a transaction (`transaction: false`), every write commits at once: a failed one discards its own blobs. */
  readonly #direct: boolean;

  constructor(controller: ResolvedController, em: EntityManager, ctx: OperationContext, direct = false) {
    this.#controller = controller;
    this.#em = em;
    this.#ctx = ctx;
    this.#direct = direct;
  }

  async list(record: ActionRecordRef, field: string): Promise<ActionFile[]> {
    const file = this.#field(this.#controller, field);
    const rows = await listFiles(this.#em, { controller: this.#controller.address, field: file.name, parentId: idOf(record) });
    return rows.map((row) => fileItem(row, file, this.#ctx.services.storage, false));
  }

  attach(record: ActionRecordRef, field: string, input: ActionFileInput): Promise<ActionFile> {
    return this.#guarded(() => this.#attach(record, field, input));
  }

  copy(from: ActionRecordRef, to: ActionRecordRef, field?: string): Promise<ActionFile[]> {
    const fields = field === undefined ? fileFields(this.#controller) : [this.#field(this.#controller, field)];
    return this.#guarded(() => this.copyFiles(this.#controller, idOf(from), idOf(to), fields));
  }

  /**
   * Copies the files of `fields` of record `fromId` to `toId` of `controller` (a relation's child
   * controller for children): new blobs, thumbnails included; one `file` audit row naming the
   * fields, unless `audit` is false (a child's files: an audit row's target is a controller, docs/audit.md).
   */
  async copyFiles(
    controller: ResolvedController,
    fromId: number,
    toId: number,
    fields: readonly FileField[],
    audit = true,
  ): Promise<ActionFile[]> {
    const em = this.#em;
    const { storage } = this.#ctx.services;
    const copied: ActionFile[] = [];
    const names: string[] = [];
    for (const file of fields) {
      const rows = await em.execute<Array<FileRow & { thumbs: unknown }>>(
        `select * from cms_files where attachment_type = ? and field = ? and attachment_id = ? order by sort_order, id`,
        [controller.address, file.name, fromId],
      );
      if (rows.length === 0) continue;
      const current = await listFiles(em, { controller: controller.address, field: file.name, parentId: toId }, { lock: true });
      let kept = current;
      if (file.maxFiles === 1 && current.length) {
        this.outbox.push(
          ...(await dropFiles(
            this.#ctx,
            em,
            current.map((row) => row.id),
          )),
        );
        kept = [];
      }
      if (kept.length + (file.maxFiles === 1 ? 1 : rows.length) > file.maxFiles)
        throw Validation({ [file.name]: [this.#ctx.t('backend::files.too_many', { max: file.maxFiles })] });
      // attachOne: the original holds one file (else its newest).
      const sources = file.maxFiles === 1 ? rows.slice(-1) : rows;
      let order = kept.reduce((max, row) => Math.max(max, Number(row.sort_order)), -1) + 1;
      for (const row of sources) {
        const data = await storage.get(row.disk_name);
        if (!data) throw new Error(`ctx.files.copy: the blob of file ${row.id} is missing from storage`);
        const extension = extname(row.disk_name).slice(1).toLowerCase() || 'bin';
        const key = newBlobKey(row.disk_name.startsWith('protected/') ? 'protected' : 'files', extension);
        this.written.push(key);
        await storage.put(key, data, row.content_type);
        // Thumbnails sit beside their image under its key (`<key>_thumb_…`): the copies beside the copy.
        const base = row.disk_name.replace(/\.[a-z0-9]+$/i, '');
        const newBase = key.replace(/\.[a-z0-9]+$/i, '');
        const thumbs: string[] = [];
        for (const thumb of thumbsOf(row.thumbs)) {
          if (!thumb.startsWith(base)) continue;
          const bytes = await storage.get(thumb);
          if (!bytes) continue;
          const copy = `${newBase}${thumb.slice(base.length)}`;
          this.written.push(copy);
          await storage.put(copy, bytes, 'image/webp');
          thumbs.push(copy);
        }
        const inserted = await em.execute<FileRow[]>(
          `insert into cms_files (disk_name, file_name, file_size, content_type, field, attachment_type, attachment_id, is_public, sort_order, title, description, uploaded_by, thumbs)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) returning *`,
          [
            key,
            row.file_name,
            row.file_size,
            row.content_type,
            file.name,
            controller.address,
            toId,
            row.is_public,
            order++,
            row.title,
            row.description,
            principalAdminId(this.#ctx.principal),
            JSON.stringify(thumbs),
          ],
        );
        copied.push(fileItem(inserted[0]!, file, storage, false));
      }
      names.push(file.name);
    }
    if (audit && names.length)
      await recordAudit(em, this.#ctx, { action: 'file', target: controller.address, recordIds: [toId], detail: 'copy', fields: names });
    return copied;
  }

  async #attach(record: ActionRecordRef, fieldName: string, input: ActionFileInput): Promise<ActionFile> {
    const controller = this.#controller;
    const file = this.#field(controller, fieldName);
    const parentId = idOf(record);
    const em = this.#em;
    const { storage } = this.#ctx.services;
    const data = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
    const refuse = (key: string, params: Record<string, string | number> = {}) =>
      Validation({ [file.name]: [this.#ctx.t(`backend::${key}`, params)] });
    const prepared = await prepareBlob(file, { originalName: input.name, size: data.length, data }, refuse);
    this.written.push(prepared.key, ...(prepared.thumb ? [prepared.thumb.key] : []));
    await storage.put(prepared.key, prepared.data ?? data, prepared.contentType);
    if (prepared.thumb) await storage.put(prepared.thumb.key, prepared.thumb.data, 'image/webp');
    const current = await listFiles(em, { controller: controller.address, field: file.name, parentId }, { lock: true });
    if (file.maxFiles === 1)
      this.outbox.push(
        ...(await dropFiles(
          this.#ctx,
          em,
          current.map((row) => row.id),
        )),
      );
    else if (current.length >= file.maxFiles)
      throw Validation({ [file.name]: [this.#ctx.t('backend::files.too_many', { max: file.maxFiles })] });
    const order = file.maxFiles === 1 ? 0 : current.reduce((max, row) => Math.max(max, Number(row.sort_order)), -1) + 1;
    const rows = await em.execute<FileRow[]>(
      `insert into cms_files (disk_name, file_name, file_size, content_type, field, attachment_type, attachment_id, is_public, sort_order, title, description, uploaded_by, thumbs)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) returning *`,
      [
        prepared.key,
        prepared.fileName,
        prepared.size,
        prepared.contentType,
        file.name,
        controller.address,
        parentId,
        file.public,
        order,
        input.title ?? '',
        input.description ?? '',
        principalAdminId(this.#ctx.principal),
        JSON.stringify(prepared.thumb ? [prepared.thumb.key] : []),
      ],
    );
    await recordAudit(em, this.#ctx, {
      action: 'file',
      target: controller.address,
      recordIds: [parentId],
      detail: 'upload',
      fields: [file.name],
    });
    return fileItem(rows[0]!, file, storage, false);
  }

  /** A fileupload field of the controller, or a programming error. */
  #field(controller: ResolvedController, name: string): FileField {
    const field = controller.fields.get(name);
    if (field?.type.name !== 'fileupload') throw new Error(`ctx.files: "${name}" is not a fileupload field of ${controller.address}`);
    return fileFieldOf(field);
  }

  /** Without a transaction, a write that fails discards the blobs it wrote; with one, the transaction's end decides. */
  async #guarded<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#direct) return work();
    const start = this.written.length;
    try {
      return await work();
    } catch (error) {
      await this.#ctx.services.blobs.discard(this.written.splice(start));
      throw error;
    }
  }
}

const thumbsOf = (value: unknown): string[] => {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? list.filter((key): key is string => typeof key === 'string') : [];
};

/** A record's id: an entity's `id` (it must have one: flush a new entity first) or an id. */
function idOf(record: ActionRecordRef): number {
  const id = typeof record === 'number' ? record : Number((record as { id?: unknown } | null)?.id);
  if (!isRecordId(id)) throw new Error('ctx.files: the record has no id (flush a new entity first, `await ctx.em.flush()`)');
  return id;
}

/**
 * Runs an action's work in one transaction (or, with `transaction: false`, on the request's
 * entity manager) with its `ctx.files` store. A rolled-back attempt's blobs are deleted: all of
 * them when the transaction fails, those of earlier attempts when a transient failure ran it again
 * (docs/errors.md, "Transient conflicts"); the replaced files' blobs go once it has committed.
 */
export async function actionTransaction<T>(
  controller: ResolvedController,
  ctx: OperationContext,
  work: (em: EntityManager, files: ActionFileStore) => Promise<T>,
  options: { transaction?: boolean } = {},
): Promise<T> {
  if (options.transaction === false) {
    const em = ctx.em();
    const files = new ActionFileStore(controller, em, ctx, true);
    try {
      return await work(em, files);
    } finally {
      // Each query committed on its own: so did the replaced files' deletions.
      await flushAfterCommit(ctx.services, files.outbox);
    }
  }
  const attempts: ActionFileStore[] = [];
  try {
    const result = await ctx.transaction((em) => {
      const files = new ActionFileStore(controller, em, ctx);
      attempts.push(files);
      return work(em, files);
    });
    const committed = attempts.pop()!;
    for (const failed of attempts) await ctx.services.blobs.discard(failed.written);
    await flushAfterCommit(ctx.services, committed.outbox);
    return result;
  } catch (error) {
    for (const failed of attempts) await ctx.services.blobs.discard(failed.written);
    throw error;
  }
}
