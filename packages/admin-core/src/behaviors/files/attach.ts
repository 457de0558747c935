import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminServices } from '../../context/services.ts';
import { putFileInto } from '../../storage/storage.ts';
import { fileFieldNamed } from './field.ts';
import { deleteFileRows, listFiles } from './items.ts';
import { prepareBlob } from './prepare.ts';

export interface AttachFileInput {
  /** The controller's address, `vendor/plugin/name`. */
  controller: string;
  /** Its fileupload field. */
  field: string;
  recordId: number;
  data: Buffer;
  fileName: string;
  title?: string;
  description?: string;
}

/**
 * Attaches a file to a record from plugin code (demo data, imports; docs/files.md, "Attaching
 * from code"): the field's rules apply as to an upload (types, size, the image guard, attachOne
 * replaces, maxFiles refuses). No permission is checked: the caller is trusted code. Answers the
 * new file's id; throws an `Error` naming the rule a file breaks.
 */
export async function attachFile(
  services: Pick<AdminServices, 'controllers' | 'storage' | 'blobs' | 'em'>,
  input: AttachFileInput,
): Promise<number> {
  const controller = services.controllers.get(input.controller);
  if (!controller) throw new Error(`attachFile: no controller "${input.controller}"`);
  const field = fileFieldNamed(controller, input.field);
  const prepared = await prepareBlob(
    field,
    { originalName: input.fileName, size: input.data.length, data: input.data },
    (key) => new Error(`attachFile: ${key}`),
  );
  const written = [prepared.key, ...(prepared.thumb ? [prepared.thumb.key] : [])];
  let outbox: number[] = [];
  try {
    if (prepared.data) await services.storage.put(prepared.key, prepared.data, prepared.contentType);
    else await putFileInto(services.storage, prepared.key, prepared.path!, prepared.contentType);
    if (prepared.thumb) await services.storage.put(prepared.thumb.key, prepared.thumb.data, 'image/webp');
    const id = await services.em().transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const current = await listFiles(em, { controller: controller.address, field: field.name, parentId: input.recordId }, { lock: true });
      if (field.maxFiles === 1 && current.length) {
        outbox = await deleteFileRows(
          services.blobs,
          em,
          current.map((row) => row.id),
        );
      } else if (current.length >= field.maxFiles) throw new Error(`attachFile: ${field.name} holds at most ${field.maxFiles} files`);
      const rows = await em.execute<Array<{ id: number }>>(
        `insert into cms_files (disk_name, file_name, file_size, content_type, field, attachment_type, attachment_id, is_public, sort_order, title, description, thumbs)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) returning id`,
        [
          prepared.key,
          prepared.fileName,
          prepared.size,
          prepared.contentType,
          field.name,
          controller.address,
          input.recordId,
          field.public,
          current.length,
          input.title ?? '',
          input.description ?? '',
          JSON.stringify(prepared.thumb ? [prepared.thumb.key] : []),
        ],
      );
      return Number(rows[0]!.id);
    });
    await services.blobs.flush(outbox);
    return id;
  } catch (error) {
    await services.blobs.discard(written);
    throw error;
  }
}
