import { describe, expect, it } from 'vitest';
import { AdminError } from '../../src/index.ts';
import { isTransientDatabaseError } from '../../src/errors/transient.ts';
import { retryTransient, TRANSACTION_RETRY } from '../../src/context/retry.ts';
import { toErrorResponse } from '../../src/http/envelope.ts';
import { strings } from '../fields/support.ts';

/*
 * Transient database failures (docs/errors.md, "Transient conflicts"): a deadlock (40P01) or a
 * serialization failure (40001) runs the transaction again a bounded number of times, then
 * answers 409 `transient_conflict`; anything else is not retried.
 */
const dbError = (code: string) => Object.assign(new Error(`database error ${code}`), { code });

describe('transient database failures', () => {
  it('recognizes 40P01 and 40001, also wrapped as a cause, and nothing else', () => {
    expect(isTransientDatabaseError(dbError('40P01'))).toBe(true);
    expect(isTransientDatabaseError(dbError('40001'))).toBe(true);
    expect(isTransientDatabaseError({ sqlState: '40P01' })).toBe(true);
    expect(isTransientDatabaseError(new Error('wrapped', { cause: dbError('40001') }))).toBe(true);
    for (const other of [dbError('23505'), dbError('40002'), dbError('57014'), new Error('40P01'), 'boom', null, undefined, 40001])
      expect(isTransientDatabaseError(other), String(other)).toBe(false);
  });

  it('runs the work again after a transient failure, with growing jittered waits, and answers its result', async () => {
    const waits: number[] = [];
    const attempts: number[] = [];
    const result = await retryTransient(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 3) throw dbError(attempt === 1 ? '40P01' : '40001');
        return 'saved';
      },
      { wait: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe('saved');
    expect(attempts).toEqual([1, 2, 3]);
    expect(waits).toHaveLength(2);
    const base = TRANSACTION_RETRY.baseDelayMs;
    expect(waits[0]).toBeGreaterThanOrEqual(base);
    expect(waits[0]).toBeLessThan(2 * base);
    expect(waits[1]).toBeGreaterThanOrEqual(2 * base);
    expect(waits[1]).toBeLessThan(4 * base);
  });

  it('gives up after the bounded retries with a 409 transient_conflict', async () => {
    let attempts = 0;
    const failed = await retryTransient(
      async () => {
        attempts++;
        throw dbError('40P01');
      },
      { wait: async () => {} },
    ).catch((error: unknown) => error);
    expect(attempts).toBe(TRANSACTION_RETRY.retries + 1);
    expect(failed).toBeInstanceOf(AdminError);
    expect(failed).toMatchObject({ code: 'transient_conflict', status: 409, kind: 'conflict' });
  });

  it('never retries another error: it is thrown as it is, after one attempt', async () => {
    let attempts = 0;
    const refusal = new AdminError('not_found');
    await expect(
      retryTransient(
        async () => {
          attempts++;
          throw refusal;
        },
        { wait: async () => {} },
      ),
    ).rejects.toBe(refusal);
    expect(attempts).toBe(1);
  });

  it('maps a transient failure that reaches the envelope to 409, never 500; other errors stay 500', () => {
    const conflict = toErrorResponse(dbError('40P01'), strings, 'de', 'req-1');
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('transient_conflict');
    expect(conflict.body.error.details).toEqual({});
    expect(conflict.body.error.message).toMatch(/erneut/);
    expect(toErrorResponse(new AdminError('transient_conflict'), strings, 'en', 'req-2').body.error.message).toMatch(/Try again/);
    expect(toErrorResponse(dbError('23505'), strings, 'en', 'req-3').status).toBe(500);
  });
});
