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
    permissions: p.json<PermissionMap>().default('{}'),
    createdAt: p.datetime().fieldName('created_at').onCreate(() => new Date()),
    updatedAt: p.datetime().fieldName('updated_at').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IRole = InferEntity<typeof Role>;

/** Free-form admin metadata; `admin_theme` and `admin_locale` are the served preferences. */
export type AdminMetadata = Record<string, unknown> & { admin_theme?: string; admin_locale?: string };

export const Admin = defineEntity({
  name: 'Admin',
  tableName: 'cms_admins',
  properties: {
    id: p.integer().primary(),
    login: p.string().length(255),
    email: p.string().length(255),
    firstName: p.string().fieldName('first_name').length(255).default(''),
    lastName: p.string().fieldName('last_name').length(255).default(''),
    subtitle: p.string().length(255).default(''),
    passwordHash: p.string().fieldName('password_hash').length(255).hidden().lazy(),
    role: () => p.manyToOne(Role).fieldName('role_id').nullable().deleteRule('set null'),
    permissions: p.json<PermissionMap>().default('{}'),
    isSuperuser: p.boolean().fieldName('is_superuser').default(false),
    metadata: p.json<AdminMetadata>().default('{}'),
    tokensValidAfter: p.datetime().fieldName('tokens_valid_after').nullable(),
    suspendedAt: p.datetime().fieldName('suspended_at').nullable(),
    deletedAt: p.datetime().fieldName('deleted_at').nullable(),
    lastLoginAt: p.datetime().fieldName('last_login_at').nullable(),
    createdAt: p.datetime().fieldName('created_at').onCreate(() => new Date()),
    updatedAt: p.datetime().fieldName('updated_at').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IAdmin = InferEntity<typeof Admin>;

/** A signed-in session. Tokens name their session; revoking the row revokes every copy of the token. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'cms_sessions',
  properties: {
    id: p.string().length(64).primary(),
    admin: () => p.manyToOne(Admin).fieldName('admin_id').deleteRule('cascade'),
    transport: p.string().length(16),
    createdAt: p.datetime().fieldName('created_at').onCreate(() => new Date()),
    expiresAt: p.datetime().fieldName('expires_at'),
    revokedAt: p.datetime().fieldName('revoked_at').nullable(),
    ip: p.string().length(64).nullable(),
    userAgent: p.string().fieldName('user_agent').length(512).nullable(),
  },
});

/** A personal API token: only its SHA-256 hash is stored. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'cms_api_tokens',
  properties: {
    id: p.integer().primary(),
    admin: () => p.manyToOne(Admin).fieldName('admin_id').deleteRule('cascade'),
    name: p.string().length(100),
    tokenHash: p.string().fieldName('token_hash').length(64).hidden(),
    tokenPrefix: p.string().fieldName('token_prefix').length(16),
    createdAt: p.datetime().fieldName('created_at').onCreate(() => new Date()),
    expiresAt: p.datetime().fieldName('expires_at').nullable(),
    lastUsedAt: p.datetime().fieldName('last_used_at').nullable(),
    revokedAt: p.datetime().fieldName('revoked_at').nullable(),
  },
});

export const coreAuthEntities = [Role, Admin, Session, ApiToken];
