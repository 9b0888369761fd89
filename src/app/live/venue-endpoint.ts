
import { listenError } from '../port-in-use.ts';
import type { BotConfig } from '../../config/index.ts';
import type { Logger } from '../../obs/logger.ts';
import { defaultCatalog, loadVenueConfig, parseVenueConfig, startVenue, type RunningVenue } from '../../sim/index.ts';

/** Where the daemon connects: URLs, credentials, and the in-process venue in embedded mode. */
export interface VenueEndpoint {
  readonly mode: 'embedded-sim' | 'remote';
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly credentials: { readonly apiKey: string; readonly apiSecret: string };
  readonly accountId: string | undefined;
  readonly tokenLifetimeS: number;
  readonly requestTimeoutMs: number | undefined;
  /** Cap of one REST response body, bytes (undefined: the client's default). */
  readonly maxResponseBytes: number | undefined;
  /** The local venue started for us (embedded mode), null when remote. */
  readonly embedded: RunningVenue | null;
  /** Stops the embedded venue (no-op when remote). */
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep-merges plain objects (`over` wins; arrays and scalars replace). */
function merge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(out[k]) ? merge(out[k], v) : v;
  return out;
}

/**
 * The venue config for embedded mode: the venue YAML (if any), then the inline knobs, then the
 * `sim` fields that were set. The venue lists, and runs synthetic flow on, only the configured
 * symbols unless the YAML or knobs say otherwise (29 instruments of flow and price history would
 * waste CPU and memory on a demo).
 */
export function embeddedVenueConfig(config: BotConfig): ReturnType<typeof parseVenueConfig> {
  if (config.venue.mode !== 'embedded-sim') throw new Error('embeddedVenueConfig: not an embedded venue');
  const sim = config.venue.sim;
  let raw: Obj = sim.config ? (loadVenueConfig(sim.config) as unknown as Obj) : {};
  if (sim.knobs) raw = merge(raw, sim.knobs as Obj);
  // Symbols the venue does not list are left out here: start-up then names them clearly.
  const listed = defaultCatalog();
  const symbols = [...new Set(config.bot.strategies.flatMap((s) => s.symbols))].filter((s) => listed.get(s) !== undefined);
  const market = isObj(raw['market']) ? raw['market'] : {};
  const listing = isObj(raw['instruments']) ? raw['instruments'] : {};
  raw = merge(raw, {
    // The venue keeps per-instrument price history (funding marks, two days): list only what we trade.
    ...(listing['only'] === undefined && symbols.length > 0 ? { instruments: { only: symbols } } : {}),
    ...(sim.seed !== undefined ? { seed: sim.seed } : {}),
    ...(sim.clock_speed !== undefined ? { clock_speed: sim.clock_speed } : {}),
    market: {
      ...(sim.synthetic_market !== undefined ? { enabled: sim.synthetic_market } : {}),
      ...(market['symbols'] === undefined ? { symbols } : {}),
    },
  });
  return parseVenueConfig(raw, sim.config ?? `${config.source.file} (venue.sim)`);
}

/**
 * Opens the venue the config names: starts the local venue on loopback, or points at a remote one.
 * @throws MmError CONFIG_INVALID when `venue.sim.port` is taken; other listen errors as they are.
 */
export async function openVenue(config: BotConfig, log: Logger): Promise<VenueEndpoint> {
  const v = config.venue;
  if (v.mode === 'remote') {
    return {
      mode: 'remote',
      baseUrl: v.base_url.replace(/\/+$/, ''),
      wsUrl: v.ws_url.replace(/\/+$/, ''),
      credentials: { apiKey: v.api_key, apiSecret: v.api_secret },
      accountId: v.account_id,
      tokenLifetimeS: v.token_ttl_s,
      requestTimeoutMs: v.request_timeout_ms,
      maxResponseBytes: v.max_response_bytes,
      embedded: null,
      close: async () => {},
    };
  }
  const venueConfig = embeddedVenueConfig(config);
  if (!['127.0.0.1', '::1', 'localhost'].includes(v.sim.host)) {
    log.warn({ host: v.sim.host }, 'the embedded venue listens beyond loopback: anyone who can reach it can trade with its default key');
  }
  const running = await startVenue({ host: v.sim.host, port: v.sim.port, config: venueConfig }).catch((e: unknown) => {
    const file = config.source.file;
    throw listenError(e, { code: 'CONFIG_INVALID', where: `${file}: venue.sim.port`, host: v.sim.host, port: v.sim.port, likelyHolder: 'another venue or mmbot?', details: { file, path: 'venue.sim.port', value: v.sim.port } });
  });
  log.info({ baseUrl: running.baseUrl, wsUrl: running.wsUrl, account: running.credentials.account_id }, `embedded local venue started on ${running.baseUrl}`);
  let closed = false;
  return {
    mode: 'embedded-sim',
    baseUrl: running.baseUrl,
    wsUrl: running.wsUrl,
    credentials: { apiKey: running.credentials.api_key, apiSecret: running.credentials.api_secret },
    accountId: v.account_id ?? running.credentials.account_id,
    tokenLifetimeS: 3600,
    requestTimeoutMs: undefined,
    maxResponseBytes: undefined,
    embedded: running,
    async close() {
      if (closed) return;
      closed = true;
      await running.stop();
    },
  };
}
