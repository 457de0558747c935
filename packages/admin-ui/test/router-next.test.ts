import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeNext } from '../src/router.ts';

/*
 * `?next=` after sign-in (docs/admin-ui.md, "Security"): resolved against the origin, accepted
 * only when the resolved path stays under the prefix, anything else the dashboard.
 */

const ORIGIN = 'https://admin.example';
const PREFIX = '/backend';
const next = (value: string | null) => safeNext(value, PREFIX, ORIGIN);

describe('safeNext', () => {
  it('keeps an application path under the prefix, with its query and fragment', () => {
    expect(next('/backend')).toBe('/backend');
    expect(next('/backend/cms/journal/posts')).toBe('/backend/cms/journal/posts');
    expect(next('/backend/cms/journal/posts?page=2&q=a')).toBe('/backend/cms/journal/posts?page=2&q=a');
    expect(next('/backend/cms/journal/posts/update/3#content')).toBe('/backend/cms/journal/posts/update/3#content');
    // Dot segments that stay under the prefix are resolved, as the browser would.
    expect(next('/backend/cms/../cms/journal/posts')).toBe('/backend/cms/journal/posts');
    expect(next('/backend/./settings')).toBe('/backend/settings');
    // The same path written in full on this origin.
    expect(next('https://admin.example/backend/settings')).toBe('/backend/settings');
    // A relative value is read against the origin's root: where it lands is what counts.
    expect(next('backend/settings')).toBe('/backend/settings');
    expect(next('../backend/settings')).toBe('/backend/settings');
  });

  it('sends everything that resolves elsewhere to the dashboard', () => {
    for (const value of [
      null,
      '',
      '/backend/../..//evil.example',
      '/backend/..//evil.example',
      '/backend/../../evil.example',
      '/backend/%2e%2e/%2e%2e//evil.example',
      '/backend/%2E%2E//evil.example',
      '/backend/.%2e//evil.example',
      '/backend\\..\\..\\\\evil.example',
      '/backend/..\\\\evil.example',
      '\\\\evil.example/backend/x',
      '/\\evil.example/backend/x',
      '//evil.example/backend/x',
      '///evil.example/backend/x',
      'https://evil.example/backend/x',
      'http://admin.example/backend/x',
      'https://admin.example:8443/backend/x',
      'javascript:alert(1)//backend/',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<p>x</p>',
      '/backendx',
      '/backend-evil/x',
      '/other/backend/x',
      '/backend/login',
      '/backend/login?next=/backend/x',
      '/backend/./login',
      '/backend/x/../login',
      'http://[::1',
    ])
      expect(next(value), JSON.stringify(value)).toBe('/backend');
  });

  it('never answers a path outside the prefix or one that names another host (property)', () => {
    const piece = fc.constantFrom('/', '\\', '..', '.', '%2e', '%2E%2e', '//', 'evil.example', 'backend', 'x', '?', '#', '@', ':', '%2f');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, lead) => {
        const answer = next(`${lead ? '/backend/' : ''}${pieces.join('')}`);
        const url = new URL(answer, `${ORIGIN}/`);
        expect(url.origin).toBe(ORIGIN);
        expect(answer.startsWith('//')).toBe(false);
        expect(
          answer === PREFIX || answer.startsWith(`${PREFIX}/`) || answer.startsWith(`${PREFIX}?`) || answer.startsWith(`${PREFIX}#`),
        ).toBe(true);
        // What is answered resolves to itself: the History API gets the path it was checked as.
        expect(url.pathname + url.search + url.hash).toBe(answer);
      }),
    );
  });
});
