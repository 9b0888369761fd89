import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipContentBytes, openLines } from '../../../src/record/import/line-source.ts';

const BOOK = join(resolve(import.meta.dirname, '../../..'), 'test/fixtures/tardis/btcusdt-book-30s.csv.gz');

describe('line source progress', () => {
  it('counts the lines handed out, not the compressed bytes read ahead (the bar read 100 % from its first update)', async () => {
    const src = openLines(BOOK);
    const text = gunzipSync(readFileSync(BOOK));
    expect(src.contentBytes).toBe(text.length); // the gzip trailer's size: 6.1 MB of CSV in 214 kB
    let first = true;
    for await (const l of src) {
      if (first) {
        first = false;
        // The disk read is a megabyte ahead: the whole 214 kB file is in after one line.
        expect(src.bytesRead()).toBe(src.sizeBytes);
        expect(src.consumedBytes()).toBe(l.text.length + 1);
        expect(src.consumedBytes() / src.contentBytes).toBeLessThan(0.001);
      }
    }
    expect(src.consumedBytes()).toBe(text.length);
  });

  it('a gzip trailer smaller than the file (a size wrapped past 4 GiB) is not trusted', () => {
    expect(gzipContentBytes(BOOK, readFileSync(BOOK).length)).toBe(gunzipSync(readFileSync(BOOK)).length);
    expect(gzipContentBytes('/nonexistent.gz', 100)).toBeNull();
  });
});
