/** A one-line progress bar on a terminal's stderr; silent when stderr is not a TTY. */
export interface ProgressBar {
  /** Shows `done` of `total` (any unit), plus a free-form note. Redraws at most 10 times a second. */
  update(done: number, total: number, note?: string): void;
  /** Clears the bar line. */
  end(): void;
}

/**
 * The line width to draw in: the terminal's columns, or 120 where it reports none or a nonsense
 * count (a pty under `script -qec` reports 0 columns).
 */
export function drawWidth(columns: number | undefined): number {
  return columns !== undefined && Number.isFinite(columns) && columns >= 20 ? Math.min(columns, 120) : 120;
}

/**
 * A progress bar with percentage and ETA, drawn with `\r` on stderr when it is a terminal. The ETA
 * is paced on the work done since the bar started: `baseDone` was done before (a resumed sweep).
 * It never throws: a bar that cannot draw switches itself off, so it cannot fail the run it shows.
 */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr, baseDone = 0): ProgressBar {
  let tty = stream.isTTY === true;
  const safely = (draw: () => void): void => {
    try {
      draw();
    } catch {
      tty = false;
    }
  };
  const startMs = Date.now();
  let lastDrawMs = 0;
  let drawn = false;
  return {
    update(done, total, note = '') {
      if (!tty) return;
      const now = Date.now();
      if (now - lastDrawMs < 100 && done < total) return;
      lastDrawMs = now;
      safely(() => draw(now, done, total, note));
    },
    end() {
      if (tty && drawn) safely(() => stream.write(`\r${' '.repeat(drawWidth(stream.columns) - 1)}\r`));
    },
  };

  function draw(now: number, done: number, total: number, note: string): void {
    const ratio = total > 0 ? done / total : 0;
    const frac = Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 0;
    const width = 24;
    const filled = Math.round(frac * width);
    const elapsedS = (now - startMs) / 1000;
    const fresh = done - baseDone;
    const etaS = fresh > 0 && fresh / Math.max(1, total) > 0.01 ? (elapsedS / fresh) * (total - done) : NaN;
    const eta = Number.isFinite(etaS) ? ` ETA ${formatDuration(etaS)}` : '';
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}%${eta} ${note}`;
    const cols = drawWidth(stream.columns);
    stream.write(`\r${line.slice(0, cols - 1).padEnd(cols - 1)}`);
    drawn = true;
  }
}

/** Seconds as `1h02m`, `3m05s` or `12s`. */
export function formatDuration(s: number): string {
  const t = Math.round(s);
  if (t >= 3600) return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
  if (t >= 60) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${t}s`;
}

/**
 * Progress for a log (stderr not a terminal): a line per tenth of `total`, the first one past the
 * `baseDone` units done before this session (a resumed sweep), each with an ETA paced on the units
 * this session did (`fresh`), so a resume does not extrapolate its first result over the rest.
 */
export function tenthsLog(total: number, baseDone: number, startMs: number): (done: number, fresh: number, nowMs: number) => string | null {
  let next = (Math.floor((Math.min(baseDone, total) / Math.max(1, total)) * 10) + 1) / 10;
  return (done, fresh, nowMs) => {
    if (!(done / total >= next || done === total)) return null;
    while (done / total >= next) next += 0.1;
    const etaS = ((nowMs - startMs) / 1000 / Math.max(1, fresh)) * (total - done);
    return `  ${done}/${total}${done < total ? ` ETA ${formatDuration(etaS)}` : ''}`;
  };
}
