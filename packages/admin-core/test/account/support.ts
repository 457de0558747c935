import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { hashApiToken, newApiToken } from '../../src/auth/tokens.ts';
import type { TestAdmin } from '../../../../test/support/app.ts';

/** A personal API token of `adminId`, written straight into the table (its routes are tested elsewhere). */
export async function createApiTokenRow(t: TestAdmin, adminId: number): Promise<string> {
  const token = newApiToken();
  await t.sql('insert into cms_api_tokens (admin_id, name, token_hash, token_prefix) values (?, ?, ?, ?)', [
    adminId,
    'test',
    hashApiToken(token),
    token.slice(0, 12),
  ]);
  return token;
}

/** A real image of the given size and format, made with sharp. */
export function makeImage(format: 'png' | 'jpeg' | 'gif' | 'webp', width = 400, height = 300): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();
}

/** A valid PNG of exactly `bytes` bytes: a real image padded with a private ancillary chunk. */
export async function pngOfSize(bytes: number): Promise<Buffer> {
  const base = await makeImage('png', 16, 16);
  const iend = base.length - 12; // the IEND chunk is the last 12 bytes
  const payload = bytes - base.length - 12; // a chunk adds length, type and CRC around its data
  if (payload < 0) throw new Error(`a PNG cannot be as small as ${bytes} bytes`);
  const chunk = Buffer.alloc(12 + payload);
  chunk.writeUInt32BE(payload, 0);
  chunk.write('prVt', 4, 'latin1'); // lower-case first letter: ancillary, decoders skip it
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + payload)), 8 + payload);
  const out = Buffer.concat([base.subarray(0, iend), chunk, base.subarray(iend)]);
  if (out.length !== bytes) throw new Error('size arithmetic is off');
  return out;
}

/** The `cms_admin` cookie value of a response, if it set one. */
export function sessionCookieOf(headers: Record<string, unknown>): string | undefined {
  const raw = headers['set-cookie'];
  const cookies = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  for (const cookie of cookies) {
    const match = /^cms_admin=([^;]*)/.exec(cookie);
    if (match?.[1]) return match[1];
  }
  return undefined;
}
