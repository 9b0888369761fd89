import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROMETHEUS_MISSING, which } from './promtool.ts';
import { freePort } from '../support/free-port.ts';

/** Re-exported for the monitoring tests (test/support/free-port.ts). */
export { freePort };

/** A Prometheus server started for a test. */
export interface TestPrometheus {
  readonly url: string;
  /** Instant query through the HTTP API; returns the result vector. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Polls `query(expr)` until `accept` holds for the result or `timeoutMs` passes (then throws with the last result). */
  waitFor(expr: string, accept: (r: { metric: Record<string, string>; value: [number, string] }[]) => boolean, timeoutMs?: number): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** The alerts Prometheus holds now (GET /api/v1/alerts): pending and firing. */
  alerts(): Promise<PromAlert[]>;
  /** Output of the server so far (for failure messages). */
  logs(): string;
  stop(): Promise<void>;
}

/** One alert as GET /api/v1/alerts returns it. */
export interface PromAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly state: 'pending' | 'firing' | 'inactive';
  readonly activeAt: string;
  readonly value: string;
}

/** The scrape config the test (and deploy/prometheus/prometheus.yml) use, for `targets` host:port. */
export function scrapeConfig(targets: readonly string[], intervalS = 1, ruleFiles: readonly string[] = []): string {
  return [
    'global:',
    `  scrape_interval: ${intervalS}s`,
    `  scrape_timeout: ${Math.round(intervalS * 800)}ms`,
    `  evaluation_interval: ${intervalS}s`,
    ...(ruleFiles.length > 0 ? ['rule_files:', ...ruleFiles.map((f) => `  - '${f}'`)] : []),
    'scrape_configs:',
    '  - job_name: mmbot',
    '    metrics_path: /metrics',
    '    static_configs:',
    `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
    '',
  ].join('\n');
}

/**
 * Starts Debian's `prometheus` on a free loopback port with a temp data dir, scraping `targets`
 * every second (and evaluating `ruleFiles`, absolute paths, every second), and waits until it is ready.
 * @throws Error with a clear message when prometheus is not installed (tests must fail, not skip).
 */
export async function startPrometheus(targets: readonly string[], opts: { readyTimeoutMs?: number; ruleFiles?: readonly string[] } = {}): Promise<TestPrometheus> {
  const bin = which('prometheus');
  if (!bin) throw new Error(PROMETHEUS_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-prom-'));
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, scrapeConfig(targets, 1, opts.ruleFiles ?? []));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  const child: ChildProcess = spawn(
    bin,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1h',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 15_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited with code ${child.exitCode}:\n${out}`);
    }
    try {
      const r = await fetch(`${url}/-/ready`);
      await r.arrayBuffer();
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready within ${opts.readyTimeoutMs ?? 15_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const query: TestPrometheus['query'] = async (expr) => {
    const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await r.json()) as { status: string; error?: string; data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] } };
    if (body.status !== 'success' || !body.data) throw new Error(`prometheus query ${expr} failed: ${body.error ?? r.status}`);
    return body.data.result;
  };

  return {
    url,
    query,
    async waitFor(expr, accept, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      let last: Awaited<ReturnType<typeof query>> = [];
      for (;;) {
        last = await query(expr);
        if (accept(last)) return last;
        if (Date.now() > end) throw new Error(`prometheus: ${expr} never matched within ${timeoutMs} ms; last result ${JSON.stringify(last)}\nserver log:\n${out}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async alerts() {
      const r = await fetch(`${url}/api/v1/alerts`);
      const body = (await r.json()) as { status: string; error?: string; data?: { alerts: PromAlert[] } };
      if (body.status !== 'success' || !body.data) throw new Error(`prometheus /api/v1/alerts failed: ${body.error ?? r.status}`);
      return body.data.alerts;
    },
    logs: () => out,
    stop,
  };
}
