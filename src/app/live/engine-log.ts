import type { Observable, Subscription } from 'rxjs';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { EngineEvent } from '../../engine/index.ts';
import type { Logger } from '../../obs/logger.ts';

/**
 * Logs the engine's rare events (fills, rejects, kill switch, strategy errors, state changes; the
 * engine logs reconciliation itself). Per-intent and per-tick events stay at debug or are skipped:
 * no per-tick logging at info.
 */
export function logEngineEvents(events$: Observable<EngineEvent>, log: Logger, catalog: InstrumentCatalog): Subscription {
  const px = (symbol: string, ticks: number): string => catalog.get(symbol)?.grid.toPrice(ticks) ?? `${ticks}t`;
  return events$.subscribe((e) => {
    switch (e.type) {
      case 'fill':
        log.info(
          { symbol: e.symbol, side: e.side, qty: e.qty, price: px(e.symbol, e.priceTicks), liquidity: e.liquidity, position: e.position, recovered: e.recovered, clientOrderId: e.clientOrderId },
          `fill ${e.side} ${e.qty} ${e.symbol} @ ${px(e.symbol, e.priceTicks)} → position ${e.position}`,
        );
        return;
      case 'hedge':
        if (e.sent) log.info({ ...e }, `hedge ${e.side} ${e.qty} ${e.symbol} limit ${px(e.symbol, e.limitTicks)} sent (IOC) for ${e.strategyId}`);
        else log.warn({ ...e }, `hedge ${e.side} ${e.qty} ${e.symbol} refused: ${e.reason ?? '?'}`);
        return;
      case 'reject':
        if (e.source === 'risk') log.debug({ ...e }, `risk refused ${e.kind}: ${e.reason}`);
        // A cancel or replace of an order that just filled: an expected race, not trouble.
        else if (e.benign) log.info({ kind: e.kind, symbol: e.symbol, clientOrderId: e.clientOrderId, reason: e.reason }, `${e.kind} of ${e.clientOrderId ?? 'an order'} not needed: ${e.reason} (it had already filled or gone)`);
        else log.warn({ ...e }, `${e.source} reject on ${e.kind}: ${e.reason} ${e.text}`.trimEnd());
        return;
      case 'position-mismatch':
        log.error(
          { symbol: e.symbol, daemon: e.engine, venue: e.venue, corrected: e.corrected },
          `position mismatch on ${e.symbol}: daemon ${e.engine}, venue ${e.venue} (as of the venue's last fill); corrected to the venue's figure → position ${e.corrected}`,
        );
        return;
      case 'unknown-fill': {
        const whose = e.kind === 'other-account' ? `for another account (${e.accountId})` : `for an order we never placed (order ${e.orderId}, client id ${e.clientOrderId ?? 'none'})`;
        log.error(
          { ...e, price: px(e.symbol, e.priceTicks) },
          `UNKNOWN FILL ${whose}: ${e.side} ${e.qty} ${e.symbol} @ ${px(e.symbol, e.priceTicks)} (trade ${e.tradeId}) not booked; reconciling with the venue's REST fills and position now`,
        );
        return;
      }
      case 'kill-switch-tripped':
        log.error(
          { reason: e.reason, detail: e.detail, action: e.action },
          `KILL SWITCH tripped (${e.reason}): ${e.detail}; all quotes pulled, ${e.action === 'stop' ? 'stopping the daemon' : 'paused (position kept; `mmbot ctl resume` to quote again)'}`,
        );
        return;
      case 'kill-switch-cleared':
        log.warn({ reason: e.reason }, `kill switch cleared (${e.reason})`);
        return;
      case 'strategy-error':
        log.error({ strategyId: e.strategyId, symbol: e.symbol, error: e.message }, `strategy ${e.strategyId} threw and was isolated: ${e.message}`);
        return;
      case 'trading-state-changed':
        // Back to ACTIVE is good news (info); leaving it is worth a warning.
        (e.to === 'ACTIVE' ? log.info.bind(log) : log.warn.bind(log))({ ...e }, `trading state ${e.symbol ?? 'engine'}: ${e.from} → ${e.to}${e.reason ? ` (${e.reason})` : ''}`);
        return;
      case 'backoff':
        log.warn({ code: e.code, pauseMs: e.pauseMs }, `venue throttling (${e.code}): slowing down for ${e.pauseMs} ms`);
        return;
      case 'dropped':
        log.warn({ endpoint: e.endpoint }, `request queue full: dropped a ${e.endpoint}`);
        return;
      case 'funding':
        log.info({ symbol: e.symbol, amount: e.amount.toFixed(), position: e.position }, `funding ${e.symbol}: ${e.amount.toFixed()} USD`);
        return;
      case 'intent-result':
        if (e.unknown) log.warn({ ...e }, `${e.kind} outcome unknown (${e.code ?? '?'}): asking the venue`);
        return;
      case 'quotes-trimmed':
        log.debug({ symbol: e.symbol, reasons: e.reasons }, 'quotes trimmed by risk');
        return;
      default:
        return;
    }
  });
}
