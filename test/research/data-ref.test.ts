import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUrlRef, normalizeDataRef, resolveDataRef } from '../../src/research/data-ref.ts';
import { dataFingerprint } from '../../src/research/fingerprint.ts';
import { freePort } from '../support/redis-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-data-ref-'));
let server: Server;
let base = '';
const hits: string[] = [];

beforeAll(async () => {
  const body = readFileSync(SAMPLE);
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/data/eurusd.jsonl.gz') {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      // In two pieces with a pause: the download must wait for the whole body.
      res.write(body.subarray(0, 1000));
      setTimeout(() => res.end(body.subarray(1000)), 20);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('data references', () => {
  it('keeps URLs and makes paths absolute', () => {
    expect(isUrlRef('https://x/y.gz')).toBe(true);
    expect(isUrlRef('file:///a')).toBe(true);
    expect(isUrlRef('data/x.gz')).toBe(false);
    expect(normalizeDataRef('data/x.gz')).toBe(resolve('data/x.gz'));
    expect(normalizeDataRef('http://h/x.gz')).toBe('http://h/x.gz');
  });

  it('downloads an http URL once into the cache (concurrent callers share it), same content, same fingerprint', async () => {
    const url = `${base}/data/eurusd.jsonl.gz`;
    const [a, b] = await Promise.all([resolveDataRef(url, dir), resolveDataRef(url, dir)]);
    expect(a).toBe(b);
    expect(a.startsWith(join(dir, 'data'))).toBe(true);
    expect(a.endsWith('eurusd.jsonl.gz')).toBe(true); // the name keeps its .gz (the reader goes by it)
    expect(await resolveDataRef(url, dir)).toBe(a);
    expect(hits.filter((h) => h === '/data/eurusd.jsonl.gz')).toHaveLength(1);
    expect(await dataFingerprint(a)).toBe(await dataFingerprint(SAMPLE));
  });

  it('resolves file:// URLs and local paths; names what is missing or unreachable', async () => {
    expect(await resolveDataRef(pathToFileURL(SAMPLE).href, dir)).toBe(SAMPLE);
    await expect(resolveDataRef(join(dir, 'none.gz'), dir)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(resolveDataRef(`${base}/missing.gz`, dir)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.stringContaining(`${base}/missing.gz: HTTP 404`) });
    const closed = `http://127.0.0.1:${await freePort()}/x.gz`;
    await expect(resolveDataRef(closed, dir)).rejects.toMatchObject({ code: 'NETWORK_ERROR', message: `cannot download ${closed}: ECONNREFUSED` });
    await expect(resolveDataRef('s3://bucket/x.gz', dir)).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/unsupported scheme s3:/) });
  });
});
