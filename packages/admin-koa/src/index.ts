export { createAdmin, type KoaAdmin } from './create-admin.ts';
export { JSON_LIMIT_BYTES } from './body.ts';
