import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Permission code to value: role permissions use 1; per-admin overrides use 1 (grant) or -1 (deny). */
export type PermissionMap = Record<string, number>;

export const Role = defineEntity({
  name: 'Role',
  tableName: 'cms_roles',
  properties: {
    id: p.integer().primary(),
    code: p.string().length(100),
    name: p.string().length(255),
    description: p.text().nullable(),
    permissions: p.json<PermissionMap>().onCreate(() => ({})),
    created_at: p.datetime().onCreate(() => new Date()),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

/** Free-form admin metadata; `admin_theme` and `admin_locale` are the served preferences. */
export type AdminMetadata = Record<string, unknown> & { admin_theme?: string; admin_locale?: string };

export const Admin = defineEntity({
  name: 'Admin',
  tableName: 'cms_admins',
  properties: {
    id: p.integer().primary(),
    login: p.string().length(255),
    email: p.string().length(255),
    first_name: p.string().length(255).default(''),
    last_name: p.string().length(255).default(''),
    subtitle: p.string().length(255).default(''),
    password_hash: p.string().length(255).hidden().lazy(),
    role: () => p.manyToOne(Role).nullable().deleteRule('set null'),
    permissions: p.json<PermissionMap>().onCreate(() => ({})),
    is_superuser: p.boolean().default(false),
    metadata: p.json<AdminMetadata>().onCreate(() => ({})),
    tokens_valid_after: p.datetime().nullable(),
    suspended_at: p.datetime().nullable(),
    deleted_at: p.datetime().nullable(),
    last_login_at: p.datetime().nullable(),
    created_at: p.datetime().onCreate(() => new Date()),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IAdmin = InferEntity<typeof Admin>;

/** A signed-in session. Tokens name their session; revoking the row revokes every copy of the token. */
const Session = defineEntity({
  name: 'Session',
  tableName: 'cms_sessions',
  properties: {
    id: p.string().length(64).primary(),
    admin: () => p.manyToOne(Admin).deleteRule('cascade'),
    transport: p.string().length(16),
    created_at: p.datetime().onCreate(() => new Date()),
    expires_at: p.datetime(),
    revoked_at: p.datetime().nullable(),
    ip: p.string().length(64).nullable(),
    user_agent: p.string().length(512).nullable(),
  },
});

/** A personal API token: only its SHA-256 hash is stored. */
const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'cms_api_tokens',
  properties: {
    id: p.integer().primary(),
    admin: () => p.manyToOne(Admin).deleteRule('cascade'),
    name: p.string().length(100),
    token_hash: p.string().length(64).hidden(),
    token_prefix: p.string().length(16),
    created_at: p.datetime().onCreate(() => new Date()),
    expires_at: p.datetime().nullable(),
    last_used_at: p.datetime().nullable(),
    revoked_at: p.datetime().nullable(),
  },
});

export const coreAuthEntities = [Role, Admin, Session, ApiToken];
