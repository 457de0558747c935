import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_TOKEN_PREFIX, hashApiToken, newApiToken, newSessionId, TokenSealer } from '../../src/auth/tokens.ts';

const SECRET = 'unit-test-secret-unit-test-secret-0123';

describe('TokenSealer', () => {
  const sealer = new TokenSealer(SECRET, 3600);

  it('seals and unseals a payload', async () => {
    const token = await sealer.seal({ sid: 'session-1', iat: 1 });
    expect(token).toMatch(/^Fe26\.2\*/);
    expect(token).not.toContain('session-1');
    expect(await sealer.unseal(token)).toEqual({ sid: 'session-1', iat: 1 });
  });

  it('refuses a tampered token: every single character matters', async () => {
    const token = await sealer.seal({ sid: 'session-1', iat: 1 });
    const positions = [8, 20, Math.floor(token.length / 2), token.length - 10, token.length - 2];
    for (const at of positions) {
      const flipped = token[at] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, at) + flipped + token.slice(at + 1);
      expect(await sealer.unseal(tampered), `position ${at}`).toBeUndefined();
    }
    expect(await sealer.unseal(token.slice(0, -1))).toBeUndefined();
    expect(await sealer.unseal(`${token}A`)).toBeUndefined();
  });

  it('refuses a token sealed with another secret', async () => {
    const foreign = await new TokenSealer('another-secret-another-secret-0123456', 3600).seal({ sid: 's', iat: 1 });
    expect(await sealer.unseal(foreign)).toBeUndefined();
  });

  it('refuses an expired token', async () => {
    // Past iron's 60-second clock skew allowance.
    const expired = await new TokenSealer(SECRET, -120).seal({ sid: 's', iat: 1 });
    expect(await sealer.unseal(expired)).toBeUndefined();
  });

  describe('a repeated token (answered from memory)', () => {
    afterEach(() => vi.useRealTimers());

    it('answers the same payload, as a copy the caller may change', async () => {
      const token = await sealer.seal({ sid: 'session-2', iat: 2 });
      const first = await sealer.unseal(token);
      first!.sid = 'changed';
      expect(await sealer.unseal(token)).toEqual({ sid: 'session-2', iat: 2 });
    });

    it('is refused once expired, although it unsealed before', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const short = new TokenSealer(SECRET, 60);
      const token = await short.seal({ sid: 'session-3', iat: 3 });
      expect(await short.unseal(token)).toEqual({ sid: 'session-3', iat: 3 });
      // Past the expiry and iron's 60-second clock skew allowance.
      vi.setSystemTime(Date.now() + 60_000 + 61_000);
      expect(await short.unseal(token)).toBeUndefined();
    });

    it('still refuses a tampered copy of a token it knows', async () => {
      const token = await sealer.seal({ sid: 'session-4', iat: 4 });
      expect(await sealer.unseal(token)).toBeDefined();
      const at = token.length - 5;
      const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect(await sealer.unseal(tampered)).toBeUndefined();
      expect(await new TokenSealer('another-secret-another-secret-0123456', 3600).unseal(token)).toBeUndefined();
    });
  });

  it('refuses garbage without throwing', async () => {
    for (const value of ['', 'Fe26.2', 'Fe26.2**', 'Fe26.2*****', 'x'.repeat(5000), `Fe26.2*${'a'.repeat(5000)}`, 'cms_pat_abc']) {
      expect(await sealer.unseal(value)).toBeUndefined();
    }
  });

  it('refuses a sealed payload of the wrong shape', async () => {
    const { seal, defaults } = await import('iron-webcrypto');
    for (const payload of [{ sid: 1, iat: 1 }, { sid: 's' }, 'text', null, [1]]) {
      const token = await seal(payload, SECRET, { ...defaults, ttl: 60_000 });
      expect(await sealer.unseal(token)).toBeUndefined();
    }
  });
});

describe('personal API tokens and session ids', () => {
  it('mints prefixed tokens with 256 random bits', () => {
    const a = newApiToken();
    expect(a.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(a).toMatch(/^cms_pat_[A-Za-z0-9_-]{43}$/);
    expect(newApiToken()).not.toBe(a);
  });

  it('hashes a token with SHA-256, hex', () => {
    expect(hashApiToken('cms_pat_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken('cms_pat_x')).toBe(hashApiToken('cms_pat_x'));
    expect(hashApiToken('cms_pat_x')).not.toBe(hashApiToken('cms_pat_y'));
  });

  it('makes session ids that fit the column', () => {
    const id = newSessionId();
    expect(id.length).toBeLessThanOrEqual(64);
    expect(newSessionId()).not.toBe(id);
  });
});
