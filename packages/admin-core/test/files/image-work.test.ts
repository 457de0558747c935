import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { MAX_JPEG_SCANS } from '../../src/storage/image-metadata/jpeg.ts';
import { asImageOwner, IMAGE_CONCURRENCY, IMAGE_OWNER_SHARE, imageOwnerOf, imageQueue, imageWork } from '../../src/storage/image-queue.ts';
import { createApiTokenRow } from '../account/support.ts';
import { progressiveJpegOfScans } from '../storage/image-samples.ts';
import { ALBUMS, COVER, startFilesAdmin, storeState, upload } from './support.ts';

/**
 * Issue 38, point 2 (docs/files.md, "Uploads" and "Image work"): a JPEG of more scans than the
 * budget is refused by the walk, before the image queue admits any decode; and one admin holds at
 * most its share of the queue, so another admin's upload is admitted whatever the first one sends.
 * Everything here counts jobs the queue admitted and places it holds; nothing is timed.
 */

const deferred = () => {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
};

/**
 * Sends a request and resolves once it is admitted into the image queue (`held` places of its
 * admin) or answered, whichever comes first: a state to reach, checked every few milliseconds, never
 * a duration. `answer` is the request's own outcome.
 */
async function admittedOrAnswered<T>(request: PromiseLike<T>, admitted: () => boolean) {
  let answered = false;
  const answer = Promise.resolve(request).finally(() => {
    answered = true;
  });
  while (!admitted() && !answered) await new Promise((resolve) => setTimeout(resolve, 2));
  return { admitted: admitted(), answer };
}

/** `count` jobs of an admin's that hold their places until released; refused ones are counted, not thrown. */
function holdJobs(adminId: number, count: number) {
  const gate = deferred();
  const jobs = Array.from({ length: count }, () =>
    asImageOwner(imageOwnerOf(adminId), () => imageWork(() => gate.promise)).then(
      () => 'ran' as const,
      (error: { status?: number }) => error.status,
    ),
  );
  return { release: gate.release, settled: Promise.all(jobs) };
}

describe('image work of uploads', () => {
  let t: TestAdmin;
  let first: Client;
  let second: Client;

  beforeAll(async () => {
    t = await startFilesAdmin();
    first = await signIn(t, { isSuperuser: true });
    second = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  let count = 0;
  const newAlbum = async () => {
    count += 1;
    const res = await first.post(ALBUMS, { title: `Scans ${count}`, slug: `scans-${count}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  const avatar = (client: Client, data: Buffer, name: string) =>
    t.http.post(`${API}/account/avatar`).set('Authorization', `Bearer ${client.token}`).attach('file_data', data, name);

  describe('the scan budget', () => {
    it(`a progressive JPEG of ${MAX_JPEG_SCANS + 1} or 883 empty scans is a 422 on file_data before any decode; nothing is stored`, async () => {
      const id = await newAlbum();
      for (const scans of [MAX_JPEG_SCANS + 1, 883]) {
        const data = progressiveJpegOfScans(scans);
        expect((await sharp(data).metadata()).isProgressive).toBe(true);
        const before = await storeState(t);
        const admitted = imageQueue.admitted;
        expect422(await upload(t, first, ALBUMS, id, COVER, data, 'scans.jpg'), ['file_data']);
        expect422(await avatar(first, data, 'scans.jpg'), ['file_data']);
        // The walk refused it: the queue admitted no job, so nothing was decoded.
        expect(imageQueue.admitted).toBe(admitted);
        expect(await storeState(t)).toEqual(before);
      }
    });

    it(`a JPEG of exactly ${MAX_JPEG_SCANS} scans, and sharp's progressive and mozjpeg photos, are stored`, async () => {
      const id = await newAlbum();
      const photo = sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 90, b: 160 } } });
      for (const [data, name] of [
        [progressiveJpegOfScans(MAX_JPEG_SCANS), 'budget.jpg'],
        [await photo.clone().jpeg({ progressive: true }).toBuffer(), 'progressive.jpg'],
        [await photo.clone().jpeg({ mozjpeg: true }).toBuffer(), 'mozjpeg.jpg'],
      ] as const) {
        const admitted = imageQueue.admitted;
        const res = await upload(t, first, ALBUMS, id, COVER, data, name);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        // The guard's decode and the public thumbnail.
        expect(imageQueue.admitted - admitted).toBe(2);
      }
    });
  });

  describe('a fair share of the image queue', () => {
    it(`an admin holding its ${IMAGE_OWNER_SHARE} places gets 429 (session or token); another admin's avatar is admitted and stored`, async () => {
      const held = holdJobs(first.id, IMAGE_OWNER_SHARE);
      const owner = imageOwnerOf(first.id);
      try {
        expect([imageQueue.held(owner), imageQueue.active]).toEqual([IMAGE_OWNER_SHARE, IMAGE_CONCURRENCY]);
        const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'white' } })
          .png()
          .toBuffer();

        // Refused at once, never admitted behind its own jobs.
        const own = await admittedOrAnswered(avatar(first, png, 'me.png'), () => imageQueue.held(owner) > IMAGE_OWNER_SHARE);
        expect(own.admitted).toBe(false);
        const refused = await own.answer;
        expect([refused.status, refused.headers['retry-after'], refused.body.error.code]).toEqual([429, '1', 'too_many_requests']);
        const pat = await createApiTokenRow(t, first.id);
        const id = await newAlbum();
        const byToken = await admittedOrAnswered(
          upload(t, { ...first, token: pat }, ALBUMS, id, COVER, png, 'token.png'),
          () => imageQueue.held(owner) > IMAGE_OWNER_SHARE,
        );
        expect(byToken.admitted).toBe(false);
        expect([(await byToken.answer).status, (await byToken.answer).headers['retry-after']]).toEqual([429, '1']);

        // Admitted: it waits in the queue for a place the first admin's jobs hold.
        const other = await admittedOrAnswered(avatar(second, png, 'other.png'), () => imageQueue.held(imageOwnerOf(second.id)) === 1);
        expect(other.admitted).toBe(true);
        held.release();
        expect(await held.settled).toEqual(Array(IMAGE_OWNER_SHARE).fill('ran'));
        const res = await other.answer;
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      } finally {
        held.release();
      }
      expect([imageQueue.active, imageQueue.waiting]).toEqual([0, 0]);
    });

    it('34 jobs of one admin fill its share, not the queue: the rest are 429 and another admin uploads', async () => {
      const flood = holdJobs(first.id, imageQueue.concurrency + imageQueue.maxWaiting);
      const id = await newAlbum();
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'black' } })
        .png()
        .toBuffer();
      const other = await admittedOrAnswered(
        upload(t, second, ALBUMS, id, COVER, png, 'other.png'),
        () => imageQueue.held(imageOwnerOf(second.id)) === 1,
      ).finally(flood.release);
      const outcomes = await flood.settled;
      expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(IMAGE_OWNER_SHARE);
      expect(outcomes.filter((outcome) => outcome === 429)).toHaveLength(
        imageQueue.concurrency + imageQueue.maxWaiting - IMAGE_OWNER_SHARE,
      );
      const res = await other.answer;
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(other.admitted).toBe(true);
    });
  });
});
