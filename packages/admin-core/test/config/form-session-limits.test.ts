import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.ts';
import { expectConfigError } from '../support/config-error.ts';

/** The bounds of form sessions (docs/host-guide.md, "Configuration reference"; docs/files.md, "Pending uploads"). */
describe('formSessionMaxPendingBytes and formSessionMaxCreated', () => {
  const base = { secret: 'a-secret-a-secret-a-secret-0123456789', database: { embedded: {} } };

  it('default to 100 MiB per admin and 100 creations per key', () => {
    const config = resolveConfig(base);
    expect(config.formSessionMaxPendingBytes).toBe(104_857_600);
    expect(config.formSessionMaxCreated).toBe(100);
    expect(resolveConfig({ ...base, formSessionMaxPendingBytes: 0 }).formSessionMaxPendingBytes).toBe(0);
    expect(resolveConfig({ ...base, formSessionMaxCreated: 10_000 }).formSessionMaxCreated).toBe(10_000);
  });

  it('refuse anything else, naming the key', () => {
    for (const value of [-1, 1.5, '100', Number.POSITIVE_INFINITY])
      expectConfigError(() => resolveConfig({ ...base, formSessionMaxPendingBytes: value as number }), 'config_value_invalid', {
        key: 'formSessionMaxPendingBytes',
      });
    for (const value of [0, 10_001, 2.5, '3'])
      expectConfigError(() => resolveConfig({ ...base, formSessionMaxCreated: value as number }), 'config_value_invalid', {
        key: 'formSessionMaxCreated',
      });
  });
});
