import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentClasses, contentImages, imageLoads } from '../src/html-tree.ts';

/*
 * Content shown by a partial or the Markdown preview (docs/admin-ui.md, "Security"): its classes
 * cannot reach the application's styles, and its images follow one rule — no relative address,
 * nothing under the admin API, whichever way it is written.
 */

describe('content classes', () => {
  it('drops the application’s classes and keeps the others', () => {
    expect(contentClasses('cms-alert')).toBeUndefined();
    expect(contentClasses('cms-button cms-primary')).toBeUndefined();
    expect(contentClasses(' CMS-Alert\tnote\ncms-primary  language-js ')).toBe('note language-js');
    expect(contentClasses('acme-stock-summary-empty')).toBe('acme-stock-summary-empty');
    expect(contentClasses('')).toBeUndefined();
    // Only the namespace's own prefix: a class merely containing it is the content's.
    expect(contentClasses('xcms-alert cms')).toBe('xcms-alert cms');
  });

  it('the namespace covers every class the application’s stylesheet styles', () => {
    const css = readFileSync(new URL('../src/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    // Class selectors: a dot after a selector boundary, not inside a number (`0.5rem`) or a url.
    const classes = new Set([...css.matchAll(/(?:^|[\s,>+~(:\]a-z*])\.(-?[_a-zA-Z][\w-]*)/gm)].map((match) => match[1]!));
    expect(classes.size).toBeGreaterThan(40);
    expect([...classes].filter((name) => contentClasses(name) !== undefined)).toEqual([]);
  });
});

describe('content images', () => {
  const rule = contentImages('/backend', 'admin.example');
  const loads = (src: string | undefined) => imageLoads(src, rule);

  it('loads absolute web addresses of other hosts and root-relative ones outside the API', () => {
    for (const src of [
      'https://cdn.example.com/a.png',
      'http://cdn.example.com/a.png',
      '/backend/assets/_files/journal/a.png',
      '/media/a.png',
      'https://admin.example/media/a.png',
    ])
      expect(loads(src), src).toBe(true);
  });

  it('refuses relative addresses, other schemes and the admin API however it is written', () => {
    for (const src of [
      undefined,
      '',
      'a.png',
      './a.png',
      '../api/v1/auth/me',
      'api/v1/x',
      '/backend/api/v1/auth/me',
      '/backend/api',
      '/BACKEND/API/v1/x',
      '/backend/%61pi/v1/x',
      '/backend/assets/../api/v1/x',
      '/backend/%2e%2e/backend/api/v1/x',
      'https://admin.example/backend/api/v1/auth/me',
      'HTTPS://ADMIN.EXAMPLE/backend/api/v1/x',
      'http://admin.example:8080/backend/api/v1/x',
      'https://admin.example/backend/assets/../api/v1/x',
      '//evil.example/a.png',
      '/\\evil.example/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'blob:https://admin.example/1',
      'file:///etc/passwd',
    ])
      expect(loads(src), JSON.stringify(src)).toBe(false);
  });

  it('without a host name, the earlier preview rule: every absolute web address', () => {
    expect(imageLoads('https://admin.example/backend/api/v1/x', { ...rule, hostname: undefined })).toBe(true);
    expect(imageLoads('/backend/api/v1/x', { ...rule, hostname: undefined })).toBe(false);
    expect(imageLoads('a.png', {})).toBe(true);
  });
});
