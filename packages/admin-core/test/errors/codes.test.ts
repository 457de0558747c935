import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AdminError, Conflict, FieldError, Unauthorized, Validation } from '../../src/index.ts';
import { ERROR_CODES, statusOf, type ErrorCode } from '../../src/errors/codes.ts';

/** The `code` and `status` columns of docs/errors.md's "Error codes" table. */
function documentedCodes(): Map<string, number> {
  const markdown = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
  const section = markdown.split(/^## Error codes$/m)[1]?.split(/^#{2,3} /m)[0];
  if (!section) throw new Error('docs/errors.md has no "## Error codes" section');
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const documented = new Map<string, number>();
  // Skip the header and the `| --- |` line.
  for (const row of rows.slice(2)) {
    const [code, status] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    const name = /^`([^`]+)`$/.exec(code ?? '')?.[1];
    if (!name || !/^\d{3}$/.test(status ?? '')) throw new Error(`docs/errors.md: unreadable row of the error codes table: ${row}`);
    if (documented.has(name)) throw new Error(`docs/errors.md lists ${name} twice`);
    documented.set(name, Number(status));
  }
  return documented;
}

describe('the error codes table', () => {
  const documented = documentedCodes();
  const table = new Map(Object.keys(ERROR_CODES).map((code) => [code, statusOf(code as ErrorCode)]));

  it('documents every core code with its status', () => {
    const missing = [...table].filter(([code, status]) => documented.get(code) !== status);
    expect(missing.map(([code, status]) => `${code} ${status}`)).toEqual([]);
  });

  it('documents no code the table lacks', () => {
    expect([...documented.keys()].filter((code) => !table.has(code))).toEqual([]);
  });

  it('gives a core code its kind and message key, whatever the call site', () => {
    const error = new AdminError('interactive_only');
    expect([error.status, error.kind, error.messageKey]).toEqual([403, 'forbidden', 'backend::errors.interactive_only']);
    expect(new AdminError('login_failed').status).toBe(401);
    expect(Unauthorized(undefined, 'login_failed').messageKey).toBe('backend::errors.login_failed');
    expect(Conflict('bulk_partly_scoped').messageKey).toBe('backend::errors.bulk_partly_scoped');
    expect(Validation({}, 'money.too_large')).toMatchObject({ status: 422, messageKey: 'backend::errors.validation_failed' });
  });

  it('asks a plugin code for its kind and message key', () => {
    const error = new AdminError('color.clash', { kind: 'conflict', messageKey: 'acme.catalog::color.clash' });
    expect([error.status, error.code]).toEqual([409, 'color.clash']);
    expect(Conflict('color.clash').messageKey).toBe('backend::errors.conflict');
    expect(() => new AdminError('color.clash' as never)).toThrow(TypeError);
    expect(() => new AdminError('internal_error' as never)).toThrow(TypeError);
  });

  it('takes a field refusal’s kind from the table for core codes', () => {
    expect(new FieldError('forbidden', 'backend::fields.relation.locked').kind).toBe('forbidden');
    expect(new FieldError('money.invalid', 'backend::fields.money.invalid', {}, 'forbidden').kind).toBe('validation');
    expect(new FieldError('stamp.locked', 'tfx.lab::stamp.locked', {}, 'forbidden').status).toBe(403);
    expect(new FieldError('stamp.invalid', 'tfx.lab::stamp.invalid').status).toBe(422);
  });
});
