import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.ts';
import { thumbnail } from '../../src/behaviors/files/prepare.ts';
import { isAdminError } from '../../src/errors/index.ts';
import { IMAGE_CONCURRENCY, imageQueue, WorkQueue } from '../../src/storage/image-queue.ts';

/**
 * Image work runs in a bounded queue of its own (docs/files.md, "Image work"): at most two jobs on
 * libuv's threadpool, so password hashing (scrypt) and the rest keep threads (finding 2).
 */

const deferred = () => {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
};

describe('WorkQueue', () => {
  it('runs at most `concurrency` jobs, lets `maxWaiting` wait in order, and refuses one more with 429 and Retry-After', async () => {
    const queue = new WorkQueue(2, 3);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      queue.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect([queue.active, queue.waiting, started]).toEqual([2, 3, [0, 1]]);
    const refused = await queue.run(async () => 'never').catch((error: unknown) => error);
    expect(isAdminError(refused) && [refused.code, refused.kind, refused.headers]).toEqual([
      'too_many_requests',
      'too_many_requests',
      { 'Retry-After': '1' },
    ]);
    gates[1]!.release();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect([queue.active, queue.waiting, started]).toEqual([2, 2, [0, 1, 2]]);
    for (const gate of gates) gate.release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect([queue.active, queue.waiting]).toEqual([0, 0]);
  });

  it('never runs more than its concurrency, whatever the jobs take and however they fail', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ ticks: fc.nat(3), fails: fc.boolean() }), { maxLength: 30 }),
        async (concurrency, jobs) => {
          const queue = new WorkQueue(concurrency, jobs.length);
          let running = 0;
          let most = 0;
          const results = await Promise.allSettled(
            jobs.map((job, i) =>
              queue.run(async () => {
                running += 1;
                most = Math.max(most, running);
                for (let tick = 0; tick < job.ticks; tick += 1) await new Promise((resolve) => setImmediate(resolve));
                running -= 1;
                if (job.fails) throw new Error(`job ${i}`);
                return i;
              }),
            ),
          );
          expect(most).toBeLessThanOrEqual(concurrency);
          expect(results.map((r) => r.status)).toEqual(jobs.map((job) => (job.fails ? 'rejected' : 'fulfilled')));
          expect([queue.active, queue.waiting]).toEqual([0, 0]);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('WorkQueue shares (issue 38)', () => {
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('refuses an owner past its share with 429 while another owner, and host code without one, are admitted', async () => {
    const queue = new WorkQueue(2, 10, 3);
    const gate = deferred();
    const hold = (owner: string | undefined) => queue.run(() => gate.promise, owner);
    const held = [hold('admin:1'), hold('admin:1'), hold('admin:1')];
    // Refused at once: without a share it would wait for a place instead.
    const refused = await Promise.race([hold('admin:1').catch((error: unknown) => error), turn().then(() => 'admitted')]);
    expect(isAdminError(refused) && [refused.status, refused.headers]).toEqual([429, { 'Retry-After': '1' }]);
    const others = [hold('admin:2'), hold(undefined), hold(undefined), hold(undefined), hold(undefined)];
    expect([queue.held('admin:1'), queue.held('admin:2'), queue.held(undefined), queue.admitted]).toEqual([3, 1, 4, 8]);
    gate.release();
    await Promise.all([...held, ...others]);
    expect([queue.active, queue.waiting, queue.held('admin:1'), queue.admitted]).toEqual([0, 0, 0, 8]);
  });

  it('gives a freed place to the waiting owner that runs the fewest jobs, not to the longest backlog', async () => {
    const queue = new WorkQueue(2, 10, 4);
    const gates = Array.from({ length: 5 }, deferred);
    const started: string[] = [];
    const job = (name: string, owner: string, gate: { promise: Promise<void> }) =>
      queue.run(async () => {
        started.push(name);
        await gate.promise;
      }, owner);
    const runs = [
      job('a1', 'a', gates[0]!),
      job('a2', 'a', gates[1]!),
      job('a3', 'a', gates[2]!),
      job('a4', 'a', gates[3]!),
      job('b1', 'b', gates[4]!),
    ];
    await turn();
    expect(started).toEqual(['a1', 'a2']);
    gates[0]!.release();
    await turn();
    // `a` still runs one job, `b` none: b1 goes first although a3 and a4 came before it.
    expect(started).toEqual(['a1', 'a2', 'b1']);
    for (const gate of gates) gate.release();
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });
});

describe('the image queue', () => {
  it(`thumbnails run ${IMAGE_CONCURRENCY} at a time, and a password hash is not queued behind them`, async () => {
    const big = await sharp({
      create: { width: 2400, height: 1800, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, imageQueue.active);
    }, 1);
    const jobs = 16;
    let done = 0;
    const thumbs = Array.from({ length: jobs }, () =>
      thumbnail(big, 200, 200, 'crop').then(() => {
        done += 1;
      }),
    );
    // A login's scrypt, started after all sixteen: without the queue it waits for libuv's threads behind them.
    let doneAtHash = -1;
    const hash = hashPassword('a password of an admin signing in').then(() => {
      doneAtHash = done;
    });
    await Promise.all([...thumbs, hash]);
    clearInterval(sampler);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(IMAGE_CONCURRENCY);
    // Without the queue the hash is the 17th job on libuv's four threads: it starts only once 13
    // thumbnails have finished. With it, it starts at once; how many thumbnails finish meanwhile
    // depends on how busy the machine is, so the bound is the one the queue makes, not a timing.
    expect(doneAtHash).toBeLessThan(jobs - 3);
  }, 60_000);
});
