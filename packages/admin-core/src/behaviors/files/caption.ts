import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { recordAudit } from '../../audit/record.ts';
import { fileItem, type FileItem, type FileRow } from './items.ts';
import { findFile, openFiles, type FileInput } from './open.ts';

export interface CaptionInput extends FileInput {
  /** At most 255 characters; absent or `null` keeps the title. */
  title?: string | null;
  /** At most 65536 characters; absent or `null` keeps the description. */
  description?: string | null;
}

const LIMITS = [
  ['title', 255],
  ['description', 65_536],
] as const;

/** The problems of a caption's values by key (docs/files.md, "Routes"): a string, within its length, without NUL. */
function captionProblems(values: Readonly<Record<string, unknown>>, ctx: Pick<OperationContext, 't'>): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const [key, max] of LIMITS) {
    const value = values[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') details[key] = [ctx.t('backend::validation.string')];
    else if (value.length > max) details[key] = [ctx.t('backend::validation.max_length', {}, max)];
    else if (value.includes('\u0000')) details[key] = [ctx.t('backend::validation.no_nul')];
  }
  return details;
}

/** `PUT {base}/{fileId}`: the title and description of a file of a field with `useCaption` (else 404). */
export async function captionFile(controller: ResolvedController, input: CaptionInput, ctx: OperationContext): Promise<FileItem> {
  return ctx.transaction(async (em) => {
    const target = await openFiles(controller, input, 'write', ctx, em);
    if (!target.file.useCaption) throw NotFound();
    const title = input.title ?? undefined;
    const description = input.description ?? undefined;
    const details = captionProblems({ title, description }, ctx);
    if (Object.keys(details).length) throw Validation(details);
    const row = await findFile(target, input.fileId, em);
    const updated = await em.execute<FileRow[]>(
      'update cms_files set title = coalesce(?, title), description = coalesce(?, description), updated_at = now() where id = ? returning *',
      [title ?? null, description ?? null, row.id],
    );
    // Every caption change of an attached file is recorded, under a session key too: it is written
    // at once, not held for the save (docs/audit.md). A pending upload's caption is not (no record holds it yet).
    if (!row.pending)
      await recordAudit(em, ctx, {
        action: 'file',
        target: controller.address,
        recordIds: [target.parentId],
        detail: 'caption',
        fields: [target.file.name],
      });
    return fileItem(updated[0]!, target.file, ctx.services.storage, row.pending);
  });
}
