import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptOf,
  allowedTypes,
  extensionOf,
  isAttachOne,
  maxBytesOf,
  maxFilesOf,
  messagesOf,
  moveId,
  moveTo,
  newUploadId,
  nextUpload,
  percentOf,
  precheck,
  startUpload,
  type UploadEvent,
} from '../src/form/files-logic.ts';

/* The file upload control's pure rules (docs/admin-ui.md, "File uploads"; docs/files.md, "Fields"). */

const file = (name: string, size = 10) => ({ name, size });

describe('the field options', () => {
  it('tells attachOne from attachMany by maxFiles', () => {
    expect(isAttachOne({ maxFiles: 1 })).toBe(true);
    expect(isAttachOne({ maxFiles: 6 })).toBe(false);
    expect(isAttachOne({})).toBe(false);
  });

  it('takes the image types in image mode without fileTypes, any type in file mode', () => {
    expect(allowedTypes({ mode: 'image' })).toEqual(['jpg', 'jpeg', 'png', 'gif', 'webp']);
    expect(allowedTypes({ mode: 'file' })).toBeUndefined();
    expect(allowedTypes({ mode: 'file', fileTypes: ['pdf', 'TXT'] })).toEqual(['pdf', 'txt']);
  });

  it('builds accept from fileTypes and mimeTypes', () => {
    expect(acceptOf({ fileTypes: ['pdf', 'txt'] })).toBe('.pdf,.txt');
    expect(acceptOf({ mimeTypes: ['image/*', 'csv', '.md'] })).toBe('image/*,.csv,.md');
    expect(acceptOf({ fileTypes: ['pdf'], mimeTypes: ['pdf', 'application/pdf'] })).toBe('.pdf,application/pdf');
    expect(acceptOf({})).toBeUndefined();
  });

  it('reads maxFilesize in MiB (fractions too) and the defaults', () => {
    expect(maxBytesOf({ maxFilesize: 2 })).toBe(2 * 1024 * 1024);
    expect(maxBytesOf({ maxFilesize: 0.5 })).toBe(512 * 1024);
    expect(maxBytesOf({})).toBe(10 * 1024 * 1024);
    expect(maxFilesOf({})).toBe(100);
    expect(maxFilesOf({ maxFiles: 6 })).toBe(6);
  });

  it('reads the last extension, lower case', () => {
    expect(extensionOf('My Cover.JPG')).toBe('jpg');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('.env')).toBe('');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('dot.')).toBe('');
  });
});

describe('checks before sending', () => {
  const gallery = { mode: 'image', maxFiles: 6 };

  it('refuses a wrong type, an empty file and a file too large', () => {
    const { accepted, refused } = precheck([file('a.png'), file('b.pdf'), file('c.gif', 0), file('d.jpg', 11 * 1024 * 1024)], gallery, 0);
    expect(accepted.map((f) => f.name)).toEqual(['a.png']);
    expect(refused.map((r) => [r.file.name, r.reason])).toEqual([
      ['b.pdf', 'type'],
      ['c.gif', 'empty'],
      ['d.jpg', 'size'],
    ]);
  });

  it('takes what fits under maxFiles, the files held counted', () => {
    const files = ['1.png', '2.png', '3.png'].map((name) => file(name));
    const { accepted, refused } = precheck(files, gallery, 4);
    expect(accepted.map((f) => f.name)).toEqual(['1.png', '2.png']);
    expect(refused).toEqual([{ file: files[2], reason: 'count' }]);
    expect(precheck(files, gallery, 6).accepted).toEqual([]);
  });

  it('lets an attachOne field take one file whatever it holds: the new one replaces', () => {
    const { accepted, refused } = precheck([file('a.pdf'), file('b.txt')], { maxFiles: 1, fileTypes: ['pdf', 'txt'] }, 1);
    expect(accepted.map((f) => f.name)).toEqual(['a.pdf']);
    expect(refused.map((r) => r.reason)).toEqual(['count']);
  });

  it('never accepts more than the room left, and accepts or refuses every file once (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.constantFrom('a.png', 'b.pdf', 'c.JPG', 'd'), size: fc.nat(12 * 1024 * 1024) }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.nat(10),
        (files, maxFiles, held) => {
          const field = { mode: 'image', maxFiles };
          const { accepted, refused } = precheck(files, field, held);
          expect(accepted.length + refused.length).toBe(files.length);
          const room = maxFiles === 1 ? 1 : Math.max(0, maxFiles - held);
          expect(accepted.length).toBeLessThanOrEqual(room);
          for (const f of accepted) {
            expect(['png', 'jpg']).toContain(extensionOf(f.name));
            expect(f.size).toBeGreaterThan(0);
            expect(f.size).toBeLessThanOrEqual(10 * 1024 * 1024);
          }
        },
      ),
    );
  });
});

describe('order', () => {
  it('moves an item, clamped at both ends', () => {
    expect(moveTo(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveTo(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveTo(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveTo(['a', 'b', 'c'], 2, 9)).toEqual(['a', 'b', 'c']);
    expect(moveId([41, 42, 43], 43, -1)).toEqual([41, 43, 42]);
    expect(moveId([41, 42, 43], 99, -1)).toEqual([41, 42, 43]);
  });

  it('keeps every id exactly once (the reorder route needs every file once) (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(1000), { minLength: 1, maxLength: 20 }),
        fc.nat(19),
        fc.integer({ min: -25, max: 25 }),
        (ids, pick, delta) => {
          const id = ids[pick % ids.length]!;
          const next = moveId(ids, id, delta);
          expect([...next].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
          const expected = Math.max(0, Math.min(ids.length - 1, ids.indexOf(id) + delta));
          expect(next.indexOf(id)).toBe(expected);
        },
      ),
    );
  });
});

describe('an upload', () => {
  const queued = () => startUpload('k1', 'u-1', file('a.png', 100));
  const start = () => nextUpload(queued(), { type: 'start' });

  it('waits, then goes from progress to done', () => {
    expect(queued()).toMatchObject({ state: 'queued', attempts: 0 });
    expect(nextUpload(queued(), { type: 'progress', loaded: 40, total: 100 })).toMatchObject({ state: 'queued', loaded: 0 });
    expect(nextUpload(queued(), { type: 'cancel' }).state).toBe('cancelled');
    let upload = nextUpload(start(), { type: 'progress', loaded: 40, total: 100 });
    expect(percentOf(upload)).toBe(40);
    upload = nextUpload(upload, { type: 'done' });
    expect(upload.state).toBe('done');
    expect(percentOf(upload)).toBe(100);
  });

  it('is retried after a failure or a cancel with the same upload id', () => {
    const failed = nextUpload(start(), { type: 'fail', messages: ['The connection failed.'] });
    expect(failed).toMatchObject({ state: 'failed', messages: ['The connection failed.'] });
    const retried = nextUpload(failed, { type: 'retry' });
    expect(retried).toMatchObject({ state: 'queued', uploadId: 'u-1', loaded: 0, messages: [] });
    expect(nextUpload(retried, { type: 'start' })).toMatchObject({ state: 'uploading', uploadId: 'u-1', attempts: 2 });
    const cancelled = nextUpload(start(), { type: 'cancel' });
    expect(nextUpload(cancelled, { type: 'retry' })).toMatchObject({ state: 'queued', uploadId: 'u-1' });
    expect(nextUpload(start(), { type: 'retry' }).state).toBe('uploading');
  });

  it('keeps its upload id through any events, and leaves a finished upload alone (property)', () => {
    const event = fc.oneof(
      fc.constant({ type: 'start' as const }),
      fc.record({ type: fc.constant('progress' as const), loaded: fc.nat(200), total: fc.integer({ min: 1, max: 200 }) }),
      fc.constant({ type: 'done' as const }),
      fc.constant({ type: 'fail' as const, messages: ['x'] }),
      fc.constant({ type: 'cancel' as const }),
      fc.constant({ type: 'retry' as const }),
    );
    fc.assert(
      fc.property(fc.array(event as fc.Arbitrary<UploadEvent>, { maxLength: 30 }), (events) => {
        let upload = queued();
        for (const e of events) {
          const before = upload;
          upload = nextUpload(upload, e);
          expect(upload.uploadId).toBe('u-1');
          if (before.state === 'done') expect(upload).toBe(before);
          expect(percentOf(upload)).toBeGreaterThanOrEqual(0);
          expect(percentOf(upload)).toBeLessThanOrEqual(100);
        }
      }),
    );
  });

  it('makes upload ids the server takes', () => {
    for (let i = 0; i < 20; i++) expect(newUploadId()).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(newUploadId(() => 'a b/c')).toBe('u-abc');
    expect(newUploadId()).not.toBe(newUploadId());
  });
});

describe('refusals', () => {
  it('lists the messages of every details key once, else the message', () => {
    expect(messagesOf({ file_data: ['Too large.'], gallery: ['At most 6 files are allowed.', 'Too large.'] }, 'Invalid.')).toEqual([
      'Too large.',
      'At most 6 files are allowed.',
    ]);
    expect(messagesOf({}, 'Invalid.')).toEqual(['Invalid.']);
    expect(messagesOf(undefined, '')).toEqual([]);
  });
});
