import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * An independent check of AWS Signature Version 4 (header-signed and presigned requests), written
 * from the published algorithm rather than with the SDK's signer: the storage tests put it in front
 * of `s3rver`, which does not verify V4 signatures itself.
 */
export type SignatureCheck = 'anonymous' | 'valid' | 'invalid';

const encode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

const sha256 = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');

export function checkSignature(req: IncomingMessage, secrets: ReadonlyMap<string, string>): SignatureCheck {
  const raw = req.url ?? '/';
  const mark = raw.indexOf('?');
  const path = mark < 0 ? raw : raw.slice(0, mark);
  const params = (mark < 0 ? '' : raw.slice(mark + 1))
    .split('&')
    .filter(Boolean)
    .map((pair): [string, string] => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [decodeURIComponent(pair), ''] : [decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1))];
    });
  const param = (name: string) => params.find(([key]) => key === name)?.[1];
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };

  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let amzDate: string | undefined;
  let payloadHash: string | undefined;
  const presigned = param('X-Amz-Signature') !== undefined || param('X-Amz-Algorithm') !== undefined;
  if (presigned) {
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'invalid';
    credential = param('X-Amz-Credential') ?? '';
    signedHeaders = param('X-Amz-SignedHeaders') ?? '';
    signature = param('X-Amz-Signature') ?? '';
    amzDate = param('X-Amz-Date');
    payloadHash = param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  } else {
    const authorization = header('authorization');
    if (!authorization) return 'anonymous';
    const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(authorization);
    if (!match) return 'invalid';
    [, credential = '', signedHeaders = '', signature = ''] = match;
    amzDate = header('x-amz-date');
    payloadHash = header('x-amz-content-sha256');
  }
  const [accessKeyId = '', date = '', region = '', service = '', terminator = ''] = credential.split('/');
  const secret = secrets.get(accessKeyId);
  if (!secret || !amzDate || !payloadHash || terminator !== 'aws4_request' || !amzDate.startsWith(date)) return 'invalid';

  const canonicalUri = path
    .split('/')
    .map((segment) => encode(decodeURIComponent(segment)))
    .join('/');
  const canonicalQuery = params
    .filter(([key]) => !(presigned && key === 'X-Amz-Signature'))
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((name) => `${name}:${(header(name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'valid' : 'invalid';
}
