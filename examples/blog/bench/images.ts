import sharp from 'sharp';

/*
 * The image workload of `pnpm bench` (docs/performance.md, "Image work"): clients upload photos
 * (2400×1800 JPEGs, each needing its header read and a thumbnail made) one after the other while
 * one admin signs in again and again. Not a load against a floor: what it shows is whether image
 * work makes a login wait. Image work runs in a bounded queue of its own (docs/files.md, "Image
 * work"), so scrypt keeps threads of libuv's pool; before, six such uploads made a login take
 * seconds (issue 22, finding 2).
 */

export interface ImageWorkload {
  id: 'I1';
  title: string;
}

const UPLOADERS = 6;

export const imageWorkloads: ImageWorkload[] = [{ id: 'I1', title: `logins while ${UPLOADERS} clients upload 2400×1800 JPEGs` }];

interface Timing {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface ImageResult {
  id: string;
  title: string;
  uploaders: number;
  uploads: Timing & { rps: number; refused: number; failures: number };
  /** Logins with nothing else running, then during the uploads. */
  idleLogin: Timing;
  login: Timing & { failures: number };
}

const timing = (values: number[]): Timing => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs I1 on the app: a post of its own, its `cover_image` replaced by every upload (attachOne),
 * `UPLOADERS` clients uploading for `duration` seconds while a login is timed every 100 ms.
 */
export async function runImages(
  workload: ImageWorkload,
  app: { url: string; token: string; login: { login: string; password: string } },
  load: { warmup: number; duration: number },
): Promise<ImageResult> {
  const api = `${app.url}/backend/api/v1`;
  const auth = { authorization: `Bearer ${app.token}` };
  const photo = await sharp({
    create: { width: 2400, height: 1800, channels: 3, background: 'grey', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  const created = await fetch(`${api}/cms/journal/posts`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Bench images', slug: `bench-images-${Date.now()}` }),
  });
  const post = (await created.json()) as { data?: { id?: number } };
  if (!created.ok || !post.data?.id) throw new Error(`I1: creating its post failed (${created.status}).`);
  const target = `${api}/cms/journal/posts/${post.data.id}/files/cover_image`;

  const signIn = async () => {
    const started = performance.now();
    const res = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(app.login),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - started, ok: res.ok };
  };
  const idle: number[] = [];
  for (let i = 0; i < 10; i += 1) idle.push((await signIn()).ms);

  let running = true;
  const uploads: number[] = [];
  let refused = 0;
  let failures = 0;
  let measuring = load.warmup === 0;
  const uploader = async () => {
    while (running) {
      const body = new FormData();
      body.append('file_data', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
      const started = performance.now();
      const res = await fetch(target, { method: 'POST', headers: auth, body }).catch(() => undefined);
      await res?.arrayBuffer();
      // One admin holds at most four places of the image queue (docs/files.md, "Image work"): a
      // client refused with 429 waits out its Retry-After instead of sending again at once.
      if (res?.status === 429) await pause(Number(res.headers.get('retry-after') ?? '1') * 1000);
      if (!measuring) continue;
      if (res?.status === 201) uploads.push(performance.now() - started);
      else if (res?.status === 429) refused += 1;
      else failures += 1;
    }
  };
  const clients = Array.from({ length: UPLOADERS }, uploader);
  if (load.warmup > 0) {
    await pause(load.warmup * 1000);
    measuring = true;
  }
  const logins: number[] = [];
  let loginFailures = 0;
  const started = performance.now();
  while (performance.now() - started < load.duration * 1000) {
    const login = await signIn();
    if (login.ok) logins.push(login.ms);
    else loginFailures += 1;
    await pause(100);
  }
  running = false;
  await Promise.all(clients);
  const seconds = (performance.now() - started) / 1000;
  await fetch(`${api}/cms/journal/posts/${post.data.id}`, { method: 'DELETE', headers: auth });
  return {
    id: workload.id,
    title: workload.title,
    uploaders: UPLOADERS,
    uploads: { ...timing(uploads), rps: uploads.length / seconds, refused, failures },
    idleLogin: timing(idle),
    login: { ...timing(logins), failures: loginFailures },
  };
}

/** The results as a table. */
export function imageTable(results: ImageResult[]): string {
  const ms = (value: number) => value.toFixed(0);
  const lines = [
    '| workload | uploads/s | upload p50 ms | upload p99 ms | login idle p50 ms | login p50 ms | login p99 ms | login max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.id} ${r.title} | ${r.uploads.rps.toFixed(1)} | ${ms(r.uploads.p50)} | ${ms(r.uploads.p99)} | ${ms(r.idleLogin.p50)} | ${ms(r.login.p50)} | ${ms(r.login.p99)} | ${ms(r.login.max)} |`,
    );
    if (r.uploads.refused) lines.push(`${r.id}: ${r.uploads.refused} uploads refused with 429 (the image queue was full).`);
    if (r.uploads.failures || r.login.failures)
      lines.push(`${r.id}: ${r.uploads.failures} uploads and ${r.login.failures} logins failed otherwise.`);
  }
  return lines.join('\n');
}
