import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { NotFound } from '../../errors/index.ts';
import { findFile, openFiles, type FileInput } from './open.ts';

/** A protected file's bytes as the download and thumbnail operations answer them; the route adds the headers. */
export interface FileBytes {
  data: Buffer;
  contentType: string;
  /** The file's display name, for `Content-Disposition`. */
  fileName: string;
}

/** `GET {base}/{fileId}/download`: the bytes of a protected file; a public file is 404 (its `url` serves it). */
export async function downloadFile(controller: ResolvedController, input: FileInput, ctx: OperationContext): Promise<FileBytes> {
  const target = await openFiles(controller, input, 'read', ctx);
  const row = await findFile(target, input.fileId, ctx.em());
  if (row.is_public) throw NotFound();
  const data = await ctx.services.storage.get(row.disk_name);
  if (!data) throw NotFound();
  return { data, contentType: row.content_type, fileName: row.file_name };
}
