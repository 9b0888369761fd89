import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DECIMAL_RE } from '../../core/decimal.ts';
import { MmError } from '../../core/errors.ts';
import { INSTRUMENT_STATES, REJECT_REASONS } from '../../domain/enums.ts';
import { parseMarketConfig } from '../market/market-config.ts';

const positiveInt = z.number().int().positive();
const decimalString = z.string().regex(DECIMAL_RE, 'expected a decimal string');

const accountSchema = z.strictObject({
  name: z.string().min(1),
  balance_usd: decimalString.default('1000000'),
  maker_fee: decimalString.default('0'),
  taker_fee: decimalString.default('0.0002'),
  is_close_only: z.boolean().default(false),
});

const forcedRejectSchema = z.strictObject({
  reason: z.enum(REJECT_REASONS),
  symbol: z.string().optional(),
  count: z.number().int().positive().default(1),
  text: z.string().optional(),
});

/** Hints for top-level keys people plausibly write but that live elsewhere. */
const KEY_HINTS: Readonly<Record<string, string>> = {
  flow: 'synthetic flow is configured under market: (market.defaults / market.overrides)',
};

const schema = z.strictObject({
  /** Venue time runs this many times faster than the wall clock (demos). */
  clock_speed: z.number().positive().default(1),
  seed: z.number().int().default(1),
  /** Delay between accepting a place/replace request and the exchange acknowledging it (venue ms; default 5, about the round trips captured on the venue). */
  ack_latency_ms: z.number().min(0).default(5),
  rate_limit: z
    .strictObject({ enabled: z.boolean().default(true), burst: z.number().int().positive().default(100), per_second: z.number().positive().default(10) })
    .prefault({}),
  max_open_orders_per_symbol: z.number().int().positive().default(100),
  tokens: z
    .strictObject({
      default_expiration_seconds: z.number().int().positive().default(3600),
      max_expiration_seconds: z.number().int().positive().default(7 * 86400),
      /** The order WS is closed (code 4001) when the token of its upgrade expires, as the venue was seen to do. */
      close_order_ws_on_expiry: z.boolean().default(true),
      /** Unrevoked tokens kept per API key; a login beyond drops the oldest (bounded session storage). */
      max_live_per_key: z.number().int().positive().default(100),
      /** Failed logins per API key a minute (venue time); beyond, logins for that key are answered 429 until the minute ends. Per client IP the same count refuses only further failing logins. */
      login_failures_per_minute: z.number().int().positive().default(10),
      /** Logins of any outcome per API key (failing logins per client IP) a minute (venue time); beyond, 429. */
      logins_per_minute: z.number().int().positive().default(600),
    })
    .prefault({}),
  /** Server `h` heartbeat interval on the order WS, real ms. */
  server_heartbeat_ms: z.number().int().positive().default(5000),
  /** UTC time of day when DAY orders end DONE_FOR_DAY. */
  day_end_utc: z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'expected HH:MM').default('00:00'),
  /** A last trade older than this no longer sets the mark (the last settlement price does). */
  mark_stale_ms: z.number().int().positive().default(300_000),
  default_user: z
    .strictObject({
      username: z.string().min(1).default('demo'),
      api_key: z.string().min(8).optional(),
      api_secret: z.string().min(8).optional(),
      accounts: z.array(accountSchema).min(1).default(() => [accountSchema.parse({ name: 'main' }), accountSchema.parse({ name: 'second' })]),
    })
    .prefault({}),
  forced_rejects: z.array(forcedRejectSchema).default([]),
  /**
   * How much history the venue keeps (newest first survive). Every growing collection is a ring
   * buffer of this size, so a venue running for weeks stays bounded; REST queries see what is kept.
   */
  retention: z
    .strictObject({
      fills_per_account: positiveInt.default(50_000),
      ledger_per_account: positiveInt.default(100_000),
      liquidations_per_account: positiveInt.default(10_000),
      /** Terminal orders kept per account (open orders are never dropped). */
      orders_per_account: positiveInt.default(100_000),
      funding_rates: positiveInt.default(50_000),
      funding_transactions: positiveInt.default(100_000),
      /** Days of per-slot funding outcomes kept per symbol (the funding estimate needs today's). */
      funding_slot_days: positiveInt.default(14),
      reward_rows: positiveInt.default(100_000),
    })
    .prefault({}),
  instruments: z
    .strictObject({
      /** Only these symbols are listed (default: the whole shipped catalog). */
      only: z.array(z.string()).optional(),
      /** Starting last-settlement prices by symbol (override the shipped ones). */
      prices: z.record(z.string(), decimalString).default({}),
      states: z.record(z.string(), z.enum(INSTRUMENT_STATES)).default({}),
    })
    .prefault({}),
  // Sections sim-market owns (market data, funding, rewards, synthetic flow under `market`,
  // liquidation): kept raw here for the plugin, but validated at load so a file's errors name it.
  market: z.unknown().optional(),
  md: z.unknown().optional(),
  funding: z.unknown().optional(),
  rewards: z.unknown().optional(),
  liquidation: z.unknown().optional(),
});

/** The venue's configuration, every knob defaulted (YAML snake_case keys). */
export type VenueConfig = z.output<typeof schema>;
/** A partial config as written in YAML or passed by tests. */
export type VenueConfigInput = z.input<typeof schema>;

/**
 * Validates and defaults a parsed config object.
 * @throws MmError CONFIG_INVALID naming `source`, the path and the offending value.
 */
export function parseVenueConfig(raw: unknown, source = '<inline>'): VenueConfig {
  const res = schema.safeParse(raw ?? {});
  if (!res.success) {
    const issue = res.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      // Name the key itself, so a misplaced or misspelt section cannot pass unnoticed.
      const key = issue.keys[0]!;
      const path = [...issue.path, key].join('.');
      const hint = issue.path.length === 0 ? KEY_HINTS[key] : undefined;
      throw new MmError('CONFIG_INVALID', `${source}: ${path}: unknown key${hint ? ` (${hint})` : ''}`, { source, path });
    }
    const path = issue.path.join('.') || '(root)';
    let value: unknown = raw;
    for (const k of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined;
    throw new MmError('CONFIG_INVALID', `${source}: ${path}: ${issue.message} (got ${JSON.stringify(value)})`, { source, path });
  }
  parseMarketConfig(res.data, source);
  return res.data;
}

/** The all-defaults config. */
export const defaultVenueConfig = (): VenueConfig => parseVenueConfig({});

/**
 * Reads a venue YAML file.
 * @throws MmError FILE_NOT_FOUND when unreadable, CONFIG_INVALID on bad YAML or values.
 */
export function loadVenueConfig(path: string): VenueConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new MmError('FILE_NOT_FOUND', `venue config ${path} cannot be read: ${(e as Error).message}`, { path });
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new MmError('CONFIG_INVALID', `${path}: not valid YAML: ${(e as Error).message}`, { path });
  }
  return parseVenueConfig(raw, path);
}
