import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWireText } from '../../src/wire/index.ts';
import { FIXTURES, fixtureFiles } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'mmbot-wire-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const mmbot = (...args: string[]) => spawnSync(process.execPath, ['bin/mmbot.js', 'wire', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('mmbot wire check', () => {
  it('passes on every venue fixture (exit 0, OK <type> per file)', () => {
    const files = fixtureFiles().map((f) => join(FIXTURES, f));
    const r = mmbot('check', ...files);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(files.length);
    expect(lines.every((l) => / OK [a-z-]+$/.test(l))).toBe(true);
    expect(r.stdout).toContain('ws-orders-filled-b.json: OK order-event');
  });

  it('fails on a broken file with the JSON path (exit 1); JSONL reports per line', () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ t: 'f', ts: 1, tn: 2, eid: 'E', o: { oid: 'O' } }, null, 2));
    const lines = join(tmp, 'frames.jsonl');
    writeFileSync(lines, '{"t":"2","ts":1,"tn":2,"s":"X","b":[{"p":"1","q":"7"}],"a":[],"st":true}\n{"rid":1,"result":{"subscribed":"X"}}\n');
    const r = mmbot('check', bad, lines);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${bad}: FAIL order-event: $.o.aid: expected string, got nothing (missing)`);
    expect(r.stdout).toContain(`${lines}:1: FAIL md-event: $.b[0].q: expected non-negative integer, got "7"`);
    expect(r.stdout).toContain(`${lines}:2: OK md-reply`);
  });

  it('--as forces a type; unknown types are usage errors', () => {
    const f = join(tmp, 'ticker.json');
    writeFileSync(f, '{"ts":1,"tn":2,"s":"X","q":0,"v":0,"oi":0}');
    expect(mmbot('check', f).status).toBe(1);
    const r = mmbot('check', f, '--as', 'md-event');
    expect(r.stdout).toContain('FAIL md-event: $.t');
    const u = mmbot('check', f, '--as', 'nope');
    expect(u.status).toBe(2);
    expect(u.stderr).toContain('unknown message type "nope"');
  });

  it('checkWireText: empty input and uninferrable shapes are errors', () => {
    expect(checkWireText('   \n')[0]?.ok).toBe(false);
    expect(checkWireText('{"hello":1}')[0]?.message).toContain('cannot infer the message type');
    expect(checkWireText('{"error":"bad"}')[0]).toMatchObject({ ok: true, type: 'error-body' });
    const broken = checkWireText('{\n  "t": "n",\n  "ts": 1,\n}\n');
    expect(broken).toHaveLength(1);
    expect(broken[0]?.message).toMatch(/^\$: invalid JSON/);
    expect(checkWireText('{"rid":1,"res":{"status":{"symbol":"X","order_id":"O","clord_id":18446744073709551615,"state":"FILLED","filled_quantity":1,"remaining_quantity":0}}}')[0]?.ok).toBe(true);
  });
});
