import { createHash } from 'node:crypto';

/** How the floor stores and checks its bearer token: only the SHA-256 is in the database. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
