import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(import.meta.dirname, '../..');

/** A JSON log line of the daemon. */
export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/** A spawned `mmbot run` process with its parsed JSON log lines. */
export interface BotProcess {
  readonly proc: ChildProcess;
  readonly lines: LogLine[];
  /** Raw stderr text (usage and config errors go there). */
  stderr(): string;
  /** Resolves with the first line (already seen or future) matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (l: LogLine) => boolean, timeoutMs: number, what: string): Promise<LogLine>;
  /** Resolves with the exit code (or the signal name when killed). */
  readonly exited: Promise<number | string>;
}

/** Spawns `node bin/mmbot.js <args>` from the repo root with extra environment variables. */
export function spawnBot(args: readonly string[], env: Record<string, string> = {}): BotProcess {
  return spawnLogged(process.execPath, [join(ROOT, 'bin/mmbot.js'), ...args], env);
}

/** Spawns `command <args>` (e.g. `npx mmbot run …`) from the repo root, parsing the daemon's JSON log lines. */
export function spawnLogged(command: string, args: readonly string[], env: Record<string, string> = {}): BotProcess {
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text, level: 'raw' };
    }
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.pred(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<number | string>((resolve) => proc.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    proc,
    lines,
    stderr: () => err,
    exited,
    waitFor(pred, timeoutMs, what) {
      const seen = lines.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise<LogLine>((resolve, reject) => {
        const w = { pred, resolve: (l: LogLine) => (clearTimeout(t), resolve(l)) };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          const tail = lines.slice(-15).map((l) => JSON.stringify(l)).join('\n');
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n--- last log lines ---\n${tail}\n--- stderr ---\n${err}`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
  };
}
