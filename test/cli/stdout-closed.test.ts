/** A reader that closes stdout early (`mmbot config schema | head -3`) ends the command quietly. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('mmbot with its stdout closed by the reader', () => {
  it('config schema | head: exit 0, nothing on stderr (was an unhandled EPIPE stack trace, exit 1)', async () => {
    const child = spawn(process.execPath, ['bin/mmbot.js', 'config', 'schema'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    // Close the pipe before the schema (~97 KB, more than a pipe holds) is written, as `head` does
    // once it has its lines.
    child.stdout.destroy();
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect({ code, err }).toEqual({ code: 0, err: '' });
  }, 30_000);
});
