import { HttpError, ok, type RouteContext, type Router } from '../server/http-kit.ts';
import type { WireCandle, WireTrade } from '../../wire/index.ts';
import { CANDLE_WIDTHS, bucketStart, isCandleWidth, type CandleWidth } from './candles.ts';
import type { MarketDataService } from './md-service.ts';
import { tsTn, wireCandle, wireLevels } from './md-frames.ts';
import { cursorPage, intParam, rangeParams, requireParam } from './paging.ts';

/** Registers the market-data REST endpoints (docs/venue-protocol.md §2.2–2.3). */
export function registerMarketDataRoutes(router: Router, md: MarketDataService): void {
  const venue = md.venue;
  const symbolOf = (ctx: RouteContext): string => {
    const s = requireParam(ctx.query, 'symbol');
    if (!venue.markets.has(s)) throw new HttpError(404, `Symbol ${s} is not available`);
    return s;
  };
  const widthOf = (ctx: RouteContext): CandleWidth => {
    const w = requireParam(ctx.query, 'candle_width');
    if (!isCandleWidth(w)) throw new HttpError(400, `candle_width must be one of ${CANDLE_WIDTHS.join(', ')}, got ${JSON.stringify(w)}`);
    return w;
  };

  router.get('/api/instruments', () => ok({ instruments: venue.rawInstruments }), { auth: false });
  router.get('/api/instrument', (ctx) => {
    const s = symbolOf(ctx);
    return ok(venue.rawInstruments.find((r) => r.symbol === s)!);
  });

  router.get('/api/book', (ctx) => {
    const s = symbolOf(ctx);
    const level = ctx.query.get('level') ?? '2';
    if (level !== '2' && level !== '3') throw new HttpError(400, `level must be 2 or 3, got ${JSON.stringify(level)}`);
    const l3 = level === '3';
    const book = venue.books.get(s)!;
    const grid = venue.markets.get(s)!.instrument.grid;
    const depth = md.cfg.book_depth;
    const { ts, tn } = tsTn(venue.clock.nowNs());
    return ok({ book: { s, b: wireLevels(book.bids.levels(depth, l3), grid, l3), a: wireLevels(book.asks.levels(depth, l3), grid, l3), ts, tn } });
  });

  router.get('/api/ticker', (ctx) => ok({ ticker: md.ticker(symbolOf(ctx)) }));

  router.get('/api/tickers', (ctx) => {
    const limit = intParam(ctx.query, 'limit', 100);
    const offset = intParam(ctx.query, 'offset', 0);
    const sort = ctx.query.get('sort') ?? 'symbol:asc';
    if (!['symbol', 'symbol:asc', 'symbol:desc'].includes(sort)) throw new HttpError(400, `sort: only symbol is supported (symbol:asc or symbol:desc), got ${JSON.stringify(sort)}`);
    const symbols = [...venue.markets.keys()].sort();
    if (sort === 'symbol:desc') symbols.reverse();
    const nowNs = venue.clock.nowNs();
    return ok({ tickers: symbols.slice(offset, offset + limit).map((s) => md.ticker(s, nowNs)), total_count: symbols.length, limit, offset });
  });

  router.get('/api/trades', (ctx) => {
    const s = symbolOf(ctx);
    const limit = intParam(ctx.query, 'limit', 10, 100);
    const { start, end } = rangeParams(ctx.query);
    const grid = venue.markets.get(s)!.instrument.grid;
    const ring = md.history.get(s)!.trades;
    const out: WireTrade[] = [];
    for (let i = ring.length - 1; i >= 0 && out.length < limit; i--) {
      const t = ring.at(i)!;
      if (end !== undefined && t.tsNs >= end) continue;
      if (start !== undefined && t.tsNs < start) break;
      out.push({ p: grid.toPrice(t.priceTicks), q: t.qty, s, d: t.takerSide === 'buy' ? 'B' : 'S', ...tsTn(t.tsNs) });
    }
    return ok({ trades: out });
  });

  router.get('/api/candles', (ctx) => {
    const s = symbolOf(ctx);
    const w = widthOf(ctx);
    const { start, end } = rangeParams(ctx.query);
    const fromMs = start === undefined ? 0 : Number(start / 1_000_000n);
    const toMs = end === undefined ? Number.MAX_SAFE_INTEGER : Number(end / 1_000_000n);
    const grid = venue.markets.get(s)!.instrument.grid;
    const candles: WireCandle[] = md.history.get(s)!.candles.range(w, bucketStart(fromMs, w), toMs).map((c) => wireCandle(s, c, grid));
    return ok({ candles });
  });

  const one = (which: 'current' | 'last') => (ctx: RouteContext) => {
    const s = symbolOf(ctx);
    const w = widthOf(ctx);
    const agg = md.history.get(s)!.candles;
    const now = venue.clock.nowMs();
    const c = which === 'current' ? agg.current(w, now) : agg.last(w, now);
    if (!c) throw new HttpError(404, `no ${which === 'current' ? 'in-progress' : 'completed'} ${w} candle for ${s}`);
    return ok({ candle: wireCandle(s, c, venue.markets.get(s)!.instrument.grid) });
  };
  router.get('/api/candles/current', one('current'));
  router.get('/api/candles/last', one('last'));

  const underlying = (key: 'underlying_prices' | 'index_prices') => (ctx: RouteContext) => {
    const s = symbolOf(ctx);
    const rows = md.history.get(s)!.underlying.toArray();
    const grid = venue.markets.get(s)!.instrument.grid;
    const page = cursorPage(
      rows,
      (r) => BigInt(Math.round(r.tsMs)) * 1_000_000n,
      (r) => `${BigInt(Math.round(r.tsMs)) * 1_000_000n}`,
      ctx.query,
      1000,
      10_000,
    );
    return ok({
      [key]: page.items.map((r) => ({ symbol: s, timestamp: new Date(r.tsMs).toISOString(), price: r.price.toFixed(grid.decimals + 2) })),
      ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      limit: page.limit,
      total_count: page.totalCount,
    });
  };
  router.get('/api/underlying-prices', underlying('underlying_prices'));
  router.get('/api/index-prices', underlying('index_prices'));

  router.post('/api/preview-aggressive-limit-order', (ctx) => {
    const b = (ctx.body ?? {}) as Record<string, unknown>;
    const s = typeof b['symbol'] === 'string' ? b['symbol'] : '';
    if (!s) throw new HttpError(400, 'symbol is required');
    if (!venue.markets.has(s)) throw new HttpError(404, `Symbol ${s} is not available`);
    const qty = b['quantity'];
    if (typeof qty !== 'number' || !Number.isInteger(qty) || qty <= 0) throw new HttpError(400, 'quantity must be a positive integer');
    const side = b['side'];
    if (side !== 'B' && side !== 'S') throw new HttpError(400, 'side must be B or S');
    const book = venue.books.get(s)!;
    const grid = venue.markets.get(s)!.instrument.grid;
    const levels = (side === 'B' ? book.asks : book.bids).levels(Infinity, false);
    let left = qty;
    let notionalTicks = 0;
    let lastTicks: number | undefined;
    for (const l of levels) {
      if (left === 0) break;
      const take = Math.min(left, l.qty);
      left -= take;
      notionalTicks += take * l.priceTicks;
      lastTicks = l.priceTicks;
    }
    const filled = qty - left;
    return ok({
      limit_price: lastTicks === undefined ? null : grid.toPrice(lastTicks),
      vwap: filled === 0 ? null : grid.toDecimal(notionalTicks).div(filled).toFixed(),
      filled_quantity: filled,
      remaining_quantity: left,
    });
  });
}
