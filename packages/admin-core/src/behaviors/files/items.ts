import type { EntityManager } from '@mikro-orm/postgresql';
import type { Storage } from '../../storage/storage.ts';
import type { BlobJanitor } from '../../storage/janitor.ts';
import { boundTargetsSql, type BindingOwner } from '../../bindings/store.ts';
import type { FileField } from './field.ts';

/**
 * Deletes rows of `cms_files` (with `pendingOnly`, only those no record holds yet) and schedules
 * their blobs, thumbnails included, for deletion after the commit (docs/files.md, "Thumbnails");
 * answers the outbox ids to flush once committed.
 */
export async function deleteFileRows(
  blobs: Pick<BlobJanitor, 'schedule'>,
  em: EntityManager,
  ids: readonly number[],
  options: { pendingOnly?: boolean } = {},
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await em.execute<Array<{ disk_name: string; thumbs: unknown }>>(
    `delete from cms_files where id in (${ids.map(() => '?').join(', ')})${options.pendingOnly ? ' and attachment_id is null' : ''}
     returning disk_name, thumbs`,
    [...ids],
  );
  return blobs.schedule(
    em,
    rows.flatMap((row) => [row.disk_name, ...thumbsOf(row.thumbs)]),
  );
}

const thumbsOf = (value: unknown): string[] => {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? list.filter((key): key is string => typeof key === 'string') : [];
};

/** A row of `cms_files` as the file routes read it. */
export interface FileRow {
  id: number;
  disk_name: string;
  file_name: string;
  file_size: number;
  content_type: string;
  title: string;
  description: string;
  sort_order: number;
  attachment_id: number | null;
  is_public: boolean;
  created_at: unknown;
}

const COLUMNS =
  'f.id, f.disk_name, f.file_name, f.file_size, f.content_type, f.title, f.description, f.sort_order, f.attachment_id, f.is_public, f.created_at';

/** The key of a thumbnail of a stored image: one blob per size and mode, beside the image. */
export const thumbKeyOf = (diskName: string, width: number, height: number, mode: 'crop' | 'fit') =>
  `${diskName.replace(/\.[a-z0-9]+$/i, '')}_thumb_${width}x${height}_${mode}.webp`;

export const isImageType = (contentType: string) => ['image/jpeg', 'image/png', 'image/gif', 'image/webp'].includes(contentType);

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

/** FileItem (spec 2.4, docs/files.md "Routes"): what the file operations answer. */
export interface FileItem {
  id: number;
  file_name: string;
  file_size: number;
  content_type: string;
  title: string;
  description: string;
  sort_order: number;
  created_at: string;
  pending: boolean;
  /** Public files only. */
  url?: string;
  /** Public images only. */
  thumb_url?: string;
}

/** A row as a FileItem: `url` and `thumb_url` only for public files. */
export function fileItem(row: FileRow, field: FileField, storage: Pick<Storage, 'url'>, pending: boolean): FileItem {
  return {
    id: Number(row.id),
    file_name: row.file_name,
    file_size: Number(row.file_size),
    content_type: row.content_type,
    title: row.title,
    description: row.description,
    sort_order: Number(row.sort_order),
    created_at: iso(row.created_at),
    pending,
    ...(row.is_public ? { url: storage.url(row.disk_name) } : {}),
    ...(row.is_public && isImageType(row.content_type)
      ? { thumb_url: storage.url(thumbKeyOf(row.disk_name, field.thumb.width, field.thumb.height, field.thumb.mode)) }
      : {}),
  };
}

/**
 * The field's files of a record as the admin sees them in one statement: attached files but
 * pending removals of the session, plus the session's pending uploads, in `sort_order`.
 */
export async function listFiles(
  em: EntityManager,
  target: { controller: string; field: string; parentId: number; owner?: BindingOwner },
  options: { lock?: boolean } = {},
): Promise<Array<FileRow & { pending: boolean }>> {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (target.parentId !== 0) {
    parts.push('(f.attachment_type = ? and f.field = ? and f.attachment_id = ?)');
    params.push(target.controller, target.field, target.parentId);
  }
  let removed = { sql: 'false', params: [] as unknown[] };
  if (target.owner) {
    const uploads = boundTargetsSql(target.owner, target.field, ['upload'], 'f.id');
    parts.push(`(f.attachment_id is null and ${uploads.sql})`);
    params.push(...uploads.params);
    removed = boundTargetsSql(target.owner, target.field, ['remove'], 'f.id');
  }
  if (parts.length === 0) return [];
  const rows = await em.execute<Array<FileRow>>(
    `select ${COLUMNS} from cms_files f where (${parts.join(' or ')}) and not (${removed.sql})
     order by f.sort_order, f.id ${options.lock ? 'for update of f' : ''}`,
    [...params, ...removed.params],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), pending: row.attachment_id === null }));
}
