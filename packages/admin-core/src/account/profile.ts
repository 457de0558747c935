import type { EntityManager } from '@mikro-orm/postgresql';
import { PRINCIPAL_COLUMNS, principalAdminFromRow, type PrincipalAdmin } from '../auth/principal.ts';
import type { Storage } from '../storage/storage.ts';

export const AVATAR_ATTACHMENT = 'cms.backend.admin';
export const AVATAR_FIELD = 'avatar';

/** The thumbnail key of an avatar blob: the 250x250 crop stored beside it. */
export const avatarThumbKey = (diskName: string) => `${diskName.replace(/\.[a-z0-9]+$/i, '')}_thumb_250x250_crop.webp`;

export interface AvatarUrls {
  url: string;
  thumb_url: string;
}

/** The admin's avatar and its thumbnail as public URLs of `storage`; `null` without one. */
export async function loadAvatar(storage: Pick<Storage, 'url'>, em: EntityManager, adminId: number): Promise<AvatarUrls | null> {
  const rows = await em.execute<Array<{ disk_name: string }>>(
    `select disk_name from cms_files where attachment_type = ? and attachment_id = ? and field = ? order by id desc limit 1`,
    [AVATAR_ATTACHMENT, adminId, AVATAR_FIELD],
  );
  const row = rows[0];
  return row ? { url: storage.url(row.disk_name), thumb_url: storage.url(avatarThumbKey(row.disk_name)) } : null;
}

/** The admin as the guard sees it, read again (after a write, inside its transaction). */
export async function loadPrincipalAdmin(em: EntityManager, adminId: number): Promise<PrincipalAdmin> {
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select ${PRINCIPAL_COLUMNS} from cms_admins a left join cms_roles r on r.id = a.role_id where a.id = ?`,
    [adminId],
  );
  if (!rows[0]) throw new Error(`admin ${adminId} vanished during the request`);
  return principalAdminFromRow(rows[0]);
}

/** AdminProfile (docs/auth.md) with every served field. Unchosen preferences are null. */
export function toProfile(admin: PrincipalAdmin, avatar: AvatarUrls | null) {
  return {
    id: admin.id,
    login: admin.login,
    email: admin.email,
    first_name: admin.firstName,
    last_name: admin.lastName,
    subtitle: admin.subtitle,
    is_superuser: admin.isSuperuser,
    ...(admin.role ? { role: { id: admin.role.id, code: admin.role.code, name: admin.role.name } } : {}),
    preferences: toPreferences(admin.metadata),
    // Always the object: typed clients read `avatar.url` without a null check (docs/auth.md, "AdminProfile").
    avatar: avatar ?? { url: null, thumb_url: null },
  };
}

export const toPreferences = (metadata: Record<string, unknown>) => ({
  admin_theme: typeof metadata.admin_theme === 'string' ? metadata.admin_theme : null,
  admin_locale: typeof metadata.admin_locale === 'string' ? metadata.admin_locale : null,
});
