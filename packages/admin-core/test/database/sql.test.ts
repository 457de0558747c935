import { describe, expect, it } from 'vitest';
import { escapeLike, quoteIdent, quoteLiteral } from '../../src/database/sql.ts';

/** The one SQL quoting module (docs/architecture.md, "Folders of `packages/admin-core/src`"). */
describe('SQL quoting', () => {
  it('quotes identifiers, doubling every double quote', () => {
    expect(quoteIdent('journal_posts')).toBe('"journal_posts"');
    expect(quoteIdent('a"b""c')).toBe('"a""b""""c"');
  });

  it('quotes literals, doubling every single quote and leaving backslashes alone', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(quoteLiteral('a\\b')).toBe("'a\\b'");
  });

  it('escapes the wildcards and the escape character of a LIKE pattern', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});
