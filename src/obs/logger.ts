import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';

/** The logger everyone gets: pino, with child loggers carrying bindings (`log.child({ symbol })`). */
export type Logger = PinoLogger;

/** Log levels, most to least severe; `silent` turns logging off. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Options of createLogger. */
export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Human-readable output; `auto` (default) = when the destination is a TTY. */
  readonly pretty?: boolean | 'auto';
  /** Bound to every line as `name`. */
  readonly name?: string;
  /** Extra bindings on every line. */
  readonly bindings?: Readonly<Record<string, unknown>>;
  /** Where lines go; default stdout (synchronous, so nothing is lost at exit). */
  readonly destination?: DestinationStream;
  /** Whether the destination is a terminal (for `pretty: 'auto'`); default `process.stdout.isTTY`. */
  readonly isTty?: boolean;
}

/** Field names whose values are secrets, wherever they appear (up to four levels deep). */
export const SECRET_KEYS: readonly string[] = [
  'api_secret',
  'apiSecret',
  'api_key',
  'apiKey',
  'secret',
  'password',
  'token',
  'access_token',
  'accessToken',
  'authorization',
  'Authorization',
  'cookie',
];

/** pino redact paths derived from SECRET_KEYS (a key at the root and up to three objects down). */
export const REDACT_PATHS: readonly string[] = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]);

/** What a redacted value is replaced by. */
export const REDACTED = '[redacted]';

/**
 * Creates the daemon's logger: JSON lines (epoch-ms `time`, `level` as a label), pretty-printed on
 * a TTY, with secrets redacted by path.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const isTty = options.isTty ?? process.stdout.isTTY === true;
  const wantPretty = options.pretty === 'auto' || options.pretty === undefined ? isTty : options.pretty;
  const base = { ...(options.name === undefined ? {} : { name: options.name }), ...options.bindings };
  const level = options.level ?? 'info';
  const pinoOptions = {
    level,
    base: { pid: process.pid, ...base },
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (!wantPretty) return pino(pinoOptions, options.destination ?? pino.destination({ dest: 1, sync: true }));
  return pino(pinoOptions, prettyStreams(isTty, level, options.destination));
}

/**
 * Terminal output: info lines are their message only (the daemon's messages say it all: a fill, a
 * status line), warnings and errors add their fields on one line, debug and trace show every field.
 */
function prettyStreams(colorize: boolean, level: LogLevel, destination: DestinationStream | undefined): DestinationStream {
  const make = (extra: { hideObject?: boolean; singleLine?: boolean }): DestinationStream =>
    pretty({ colorize, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name', ...extra, ...(destination ? { destination } : {}) });
  // dedupe: each line goes to the stream with the highest level at or below its own.
  return pino.multistream(
    [
      { level: 'trace', stream: make({}) },
      { level: 'info', stream: make({ hideObject: true }) },
      { level: 'warn', stream: make({ singleLine: true }) },
    ],
    { dedupe: true },
  ) as unknown as DestinationStream;
}

/** A logger that drops everything (tests, library defaults). */
export const silentLogger = (): Logger => pino({ level: 'silent' });

/**
 * A deep copy of `value` with every SECRET_KEYS field replaced by REDACTED, for printing objects
 * (such as a loaded config) outside the logger.
 */
export function redactSecrets<T>(value: T): T {
  const secret = new Set(SECRET_KEYS);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, secret.has(k) && x !== undefined ? REDACTED : walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
