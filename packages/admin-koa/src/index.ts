export { createAdmin, type KoaAdmin } from './create-admin.ts';
export { JSON_LIMIT_BYTES } from '@cms/admin-core/adapter';
