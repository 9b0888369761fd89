import type { VenueConfig } from '../config/venue-config.ts';
import type { VenuePlugin, VenuePluginContext } from '../plugin.ts';
import { wireEstimate as wireEstimateOf } from '../funding/funding-estimate.ts';
import { FundingService } from '../funding/funding-service.ts';
import { registerFundingRoutes } from '../funding/funding-routes.ts';
import { LiquidationMonitor } from '../funding/liquidation-monitor.ts';
import { MarketDataService } from '../md/md-service.ts';
import { registerMarketDataRoutes } from '../md/md-routes.ts';
import { registerMarketDataWs } from '../md/md-ws.ts';
import { RewardService } from '../rewards/reward-service.ts';
import { registerRewardRoutes } from '../rewards/reward-routes.ts';
import { FlowDriver } from './flow-driver.ts';
import { parseMarketConfig, type MarketConfig } from './market-config.ts';

export { MARKET_PRESETS, type MarketPreset } from './market-config.ts';
export { runPresetReport, presetReportTable, MARKOUT_HORIZONS_S, type PresetReportOptions, type SymbolPresetReport, type QuoterReport } from './preset-report.ts';

/** Handles to the running sim-market services (tests and knobs reach them via `venue.plugins`). */
export interface MarketServices {
  readonly config: MarketConfig;
  readonly md: MarketDataService;
  readonly funding: FundingService;
  readonly flow: FlowDriver;
  readonly rewards: RewardService;
  readonly liquidation: LiquidationMonitor;
}

const byVenue = new WeakMap<object, MarketServices>();

/** The sim-market services installed on a venue, if any. */
export function marketServicesOf(venue: object): MarketServices | undefined {
  return byVenue.get(venue);
}

/**
 * The sim-market plugin: market data (REST + /md/ws), funding, rewards, synthetic flow and the
 * liquidation monitor, configured from the venue YAML's `market`, `md`, `funding`, `rewards` and
 * `liquidation` sections.
 * @throws MmError CONFIG_INVALID when a section is malformed.
 */
export function marketPlugin(venueConfig: VenueConfig): VenuePlugin {
  const cfg = parseMarketConfig(venueConfig, 'venue config');
  let services: MarketServices | undefined;
  return {
    name: 'sim-market',
    register(ctx: VenuePluginContext) {
      const venue = ctx.venue;
      const md = new MarketDataService(venue, cfg.md, ctx.ioClock);
      const flow: FlowDriver = new FlowDriver(venue, cfg.market, venueConfig.seed, (now) => {
        for (const symbol of flow.flows.keys()) md.recordUnderlying(symbol, now, flow.underlying(symbol)!);
      });
      const funding = new FundingService(venue, cfg.funding, (s) => flow.underlying(s));
      md.estimate = (s) => {
        const ins = venue.catalog.get(s);
        return ins ? { ...wireEstimateOf(funding, ins, venue.clock.nowMs()) } : null;
      };
      const rewards = new RewardService(venue, cfg.rewards);
      const liquidation = new LiquidationMonitor(venue, cfg.liquidation);
      flow.start();
      registerMarketDataRoutes(ctx.router, md);
      registerMarketDataWs(ctx.ws, md);
      registerFundingRoutes(ctx.router, funding);
      registerRewardRoutes(ctx.router, rewards);
      services = { config: cfg, md, funding, flow, rewards, liquidation };
      byVenue.set(venue, services);
    },
    stop() {
      if (!services) return;
      services.flow.close();
      services.rewards.close();
      services.liquidation.close();
      services.funding.close();
      services.md.close();
    },
  };
}

/** Default plugin list `startVenue` discovers. */
export function marketPlugins(venueConfig: VenueConfig): VenuePlugin[] {
  return [marketPlugin(venueConfig)];
}
