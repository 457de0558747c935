import type { LocalOptions } from '../context/local.ts';
import type { ResolvedController } from '../controllers/resolve.ts';
import type { OperationContext } from '../context/operation.ts';
import { captionFile, type CaptionInput } from '../behaviors/files/caption.ts';
import { downloadFile } from '../behaviors/files/download.ts';
import { listFileItems } from '../behaviors/files/list.ts';
import type { FileInput, FilesInput } from '../behaviors/files/open.ts';
import { removeFile } from '../behaviors/files/remove.ts';
import { reorderFiles, type ReorderInput } from '../behaviors/files/reorder.ts';
import { thumbFile, type ThumbInput } from '../behaviors/files/thumb.ts';
import { uploadFile, type UploadInput } from '../behaviors/files/upload.ts';
import type { OperationFamily } from './gate.ts';
import { checkSessionOwner, onController, type LocalRunner } from './runner.ts';

/*
 * Files (docs/local-api.md, "Files"): the file operations with their typed inputs (docs/files.md,
 * "Calling the operations from code"); an upload takes a `FileSource` (bytes, a stream or a path).
 * The controller's permissions are checked here; each operation checks the field's context,
 * `readOnly`, its rules and the record itself.
 */

function fileCall<I extends FilesInput, R>(
  runner: LocalRunner,
  family: OperationFamily,
  operation: (controller: ResolvedController, input: I, ctx: OperationContext) => Promise<R>,
) {
  return async (address: string, input: I, options: LocalOptions): Promise<R> => {
    const { controller, ctx } = await onController(runner, address, family, options);
    checkSessionOwner(ctx, input.sessionKey);
    return operation(controller, input, ctx);
  };
}

export function fileMethods(runner: LocalRunner) {
  return {
    /** The field's files (a form session's pending ones included under its key). */
    list: fileCall<FilesInput, Awaited<ReturnType<typeof listFileItems>>>(runner, 'files', listFileItems),
    /** The bytes of a file (protected files too). */
    download: fileCall<FileInput, Awaited<ReturnType<typeof downloadFile>>>(runner, 'files', downloadFile),
    thumb: fileCall<ThumbInput, Awaited<ReturnType<typeof thumbFile>>>(runner, 'files', thumbFile),
    upload: fileCall<UploadInput, Awaited<ReturnType<typeof uploadFile>>>(runner, 'files:write', uploadFile),
    caption: fileCall<CaptionInput, Awaited<ReturnType<typeof captionFile>>>(runner, 'files:write', captionFile),
    remove: fileCall<FileInput, Awaited<ReturnType<typeof removeFile>>>(runner, 'files:write', removeFile),
    reorder: fileCall<ReorderInput, Awaited<ReturnType<typeof reorderFiles>>>(runner, 'files:write', reorderFiles),
  };
}
