import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { Validation } from '../../errors/index.ts';
import { checkFieldAccess } from '../form/field-access.ts';
import { fileFieldNamed } from '../files/field.ts';
import type { FileItem } from '../files/items.ts';
import { releaseSource } from '../files/local-file.ts';
import type { FileSource } from '../files/source.ts';
import { uploadFile } from '../files/upload.ts';
import { childKeyOf } from './child-key.ts';
import { mustBeMember } from './members.ts';
import { checkRecordId, openRelation, relationOf, type RelationRef } from './open.ts';

export interface UploadChildFileInput extends RelationRef {
  /** The member's id; 0 for a child not created yet. */
  child: number;
  /** A `fileupload` field of the child's form. */
  field: string;
  file: FileSource;
  /** The child form's session (required): the upload waits for the child's save under it. */
  childSessionKey?: string;
  /** Makes a retry answer the first upload (`X-Upload-Id` over HTTP, docs/files.md, "Retries"). */
  uploadId?: string;
}

/**
 * `POST {base}/records/{child}/files/{field}`: an upload into the child's form, held under the
 * child's session key until the child's create or update save through the relation routes commits
 * it (docs/files.md, "Child forms").
 */
export async function uploadChildFile(
  controller: ResolvedController,
  input: UploadChildFileInput,
  ctx: OperationContext,
): Promise<FileItem> {
  try {
    const target = await openRelation(controller, input, 'write', ctx);
    const child = checkRecordId(input.child, true);
    // The child form's file field obeys its `context` and `readOnly` as on the child's form.
    checkFieldAccess(fileFieldNamed(relationOf(controller, input.relation).view, input.field).field, child, 'write', ctx);
    if (input.childSessionKey === undefined) throw Validation({ 'X-Child-Session-Key': [ctx.t('backend::validation.required')] });
    const { sessionKey } = childKeyOf(input.childSessionKey, ctx);
    if (child !== 0) await mustBeMember(target, child, ctx.em());
    return await uploadFile(
      target.relation.view,
      { id: child, field: input.field, file: input.file, uploadId: input.uploadId, ...(sessionKey ? { sessionKey } : {}) },
      ctx,
    );
  } catch (error) {
    // A stream refused before it is read is let go, as the file operations do.
    releaseSource(input.file);
    throw error;
  }
}
