import type { DesiredQuotes } from '../../domain/intents.ts';
import { isDesiredQuotes, isStrategyPlan, type Strategy, type StrategyContext, type StrategyOutput } from '../contract.ts';
import { applyAdjustment, neutralAdjustment, resetAdjustment } from './adjustment.ts';
import { createOverlay, type OverlayConfig } from './config.ts';
import type { Overlay } from './overlay.ts';

/**
 * Wraps a strategy with overlays (applied in order): each evaluation, the inner strategy's quotes
 * for the primary symbol (a ladder, or the primary's ladder in a plan) get the overlays' shift,
 * widening, size multipliers and limits, then their `finish` hooks. Raw intents and other symbols'
 * ladders pass through. When the inner strategy returns null (no change), its last ladder is
 * adjusted again, since overlays follow the market on their own. No overlays → the inner strategy.
 */
export function withOverlays(inner: Strategy, overlays: readonly (Overlay | OverlayConfig)[]): Strategy {
  if (overlays.length === 0) return inner;
  const list: Overlay[] = overlays.map((o) => ('adjust' in o ? o : createOverlay(o)));
  for (const o of list) o.bind?.(inner);
  const adj = neutralAdjustment();
  let lastInner: DesiredQuotes | null = null;
  // The last adjusted ladder: an equal one is this very object (the engine then skips its gate and diff).
  let lastAdjusted: DesiredQuotes | null = null;
  const adjust = (ctx: StrategyContext, q: DesiredQuotes): DesiredQuotes => {
    resetAdjustment(adj);
    for (const o of list) o.adjust(ctx, q, adj);
    let out = (lastAdjusted = applyAdjustment(ctx, q, adj, lastAdjusted));
    for (const o of list) if (o.finish) out = o.finish(ctx, out);
    return out;
  };
  const wrapped: Strategy = {
    quote(ctx: StrategyContext): StrategyOutput {
      const out = inner.quote(ctx);
      if (out === null) return lastInner === null ? null : adjust(ctx, lastInner);
      if (isDesiredQuotes(out)) {
        if (out.symbol !== ctx.symbol) return out;
        lastInner = out;
        return adjust(ctx, out);
      }
      if (isStrategyPlan(out)) {
        const i = out.quotes.findIndex((q) => q.symbol === ctx.symbol);
        if (i < 0) return out;
        lastInner = out.quotes[i]!;
        const quotes = out.quotes.slice();
        quotes[i] = adjust(ctx, lastInner);
        return { ...out, quotes };
      }
      return out;
    },
  };
  // Overlays read the touch and our fills; a deeper inner strategy keeps its depth.
  const flags = inner.widensOnFastVolatility === true ? { widensOnFastVolatility: true } : {};
  if (inner.bookDepth !== undefined) return { ...wrapped, ...flags, bookDepth: Math.max(1, inner.bookDepth) };
  return { ...wrapped, ...flags };
}
