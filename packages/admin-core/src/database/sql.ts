/*
 * Quoting and escaping for SQL the admin writes itself: table and column names come from entity
 * metadata or a plugin migration, never from a request, but they may hold any character
 * PostgreSQL allows in a quoted name. Values still go as parameters; a literal is only for
 * statements that take none (`execute '…'` inside a `do` block, a `'…'::regclass` cast).
 */

/** A PostgreSQL identifier, quoted: `a"b` is `"a""b"`. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A PostgreSQL string literal, quoted: `it's` is `'it''s'` (standard strings, no backslash escapes). */
export const quoteLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** `%`, `_` and `\` are literal in a search: escaped for LIKE (PostgreSQL's default escape is `\`). */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);
