/**
 * `npm run scenario:token-rollover` (issue 12, item 3): a daemon trading a separate `mmbot sim` with
 * 60 s session tokens for 200 s. The venue closes an order socket when its token expires (and
 * cancel-on-disconnect would pull every quote); the daemon must roll its session over before each
 * expiry. Criteria: two-sided quotes at the venue in ≥ 97% of 1 s samples, zero order-socket drops
 * (mmbot_connection_reconnects_total{stream="orders"} = 0), at least 3 rollovers
 * (mmbot_session_rollovers_total), and a clean SIGINT (0 orders left, position and fills equal).
 * Options: --run-s N (default 200), --ttl-s N (default 60), --seed N.
 */
import { flagNumber, parseArgs } from '../../src/cli/args.ts';
import { finalLine, metricsUrl, report, scrape, scratch, sleep, startBot, startSim, sum, venueView, type Criterion } from './scenario-kit.ts';

const args = parseArgs(process.argv.slice(2), { valued: ['run-s', 'ttl-s', 'seed'] });
const runS = flagNumber(args, 'run-s') ?? 200;
const ttlS = flagNumber(args, 'ttl-s') ?? 60;
const seed = flagNumber(args, 'seed') ?? 21;
const SYMBOL = 'EURUSD-PERP';

const dir = scratch();
const sim = await startSim(
  dir,
  `seed: ${seed}
instruments: { only: [${SYMBOL}] }
tokens: { close_order_ws_on_expiry: true }
market: { symbols: [${SYMBOL}], step_ms: 200, defaults: { takers: { rate_per_min: 30 } } }
`,
);
const venue = await venueView(sim.creds);
const t0 = Date.now();
process.stderr.write(`scenario token-rollover: sim ${sim.creds.base_url}; ${ttlS} s tokens for ${runS} s\n`);
// A position limit far from reach: a one-sided book here must mean lost quotes, not inventory control.
const bot = startBot(dir, sim.creds, { baseUrl: sim.creds.base_url, wsUrl: sim.creds.ws_url }, `  token_ttl_s: ${ttlS}\n`, 50_000);
try {
  const url = await metricsUrl(bot);
  await bot.waitFor((l) => l.msg === 'order stream connected', 30_000, 'the order stream');
  // Let the first quotes rest before sampling.
  await bot.waitFor((l) => typeof l.msg === 'string' && /\d+ working/.test(l.msg) && !/ 0 working/.test(l.msg), 30_000, 'quotes resting').catch(() => undefined);
  await sleep(2_000);
  const end = Date.now() + runS * 1000;
  let samples = 0;
  let twoSided = 0;
  let gaps = 0;
  const gapNotes: string[] = [];
  while (Date.now() < end) {
    const v = await venue.openOrders();
    samples++;
    if (v.buy > 0 && v.sell > 0) twoSided++;
    else {
      gaps++;
      const m = await scrape(url);
      gapNotes.push(`t=${((Date.now() - t0) / 1000).toFixed(0)}s ${v.buy}/${v.sell} pos ${sum(m, 'mmbot_position_contracts')} pending ${sum(m, 'mmbot_orders_pending')} rollovers ${sum(m, 'mmbot_session_rollovers_total')}`);
    }
    await sleep(1_000);
  }
  const m = await scrape(url);
  const drops = sum(m, 'mmbot_connection_reconnects_total', { stream: 'orders' });
  const rollovers = sum(m, 'mmbot_session_rollovers_total', { stream: 'orders' });
  const fillsBot = sum(m, 'mmbot_fills_total');

  bot.proc.kill('SIGINT');
  const exitCode = await bot.exited;
  await sleep(500);
  const left = await venue.openOrders();
  const fin = finalLine(bot);
  const venuePos = await venue.position(SYMBOL);
  const venueFills = await venue.fillCount(t0 - 60_000);
  const lost = bot.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('order stream down')).length;
  const share = twoSided / Math.max(1, samples);
  const criteria: Criterion[] = [
    { name: 'two-sided quotes (venue, 1 Hz)', value: `${(100 * share).toFixed(1)}%`, target: '≥ 97%', ok: share >= 0.97 },
    { name: 'order-socket drops', value: String(drops), target: '0', ok: drops === 0 },
    { name: 'session rollovers', value: String(rollovers), target: `≥ ${Math.max(1, Math.floor(runS / ttlS))}`, ok: rollovers >= Math.max(1, Math.floor(runS / ttlS)) },
    { name: 'orders left at the venue after SIGINT', value: String(left.buy + left.sell), target: '0', ok: left.buy + left.sell === 0 },
    { name: 'final position bot = venue', value: `${fin?.positions[SYMBOL] ?? 'n/a'} / ${venuePos}`, target: 'equal', ok: fin !== undefined && (fin.positions[SYMBOL] ?? 0) === venuePos },
    { name: 'fill count bot = venue', value: `${fin?.fills ?? 'n/a'} / ${venueFills}`, target: 'equal', ok: fin !== undefined && fin.fills === venueFills },
    { name: 'daemon exit code', value: String(exitCode), target: '0', ok: exitCode === 0 },
  ];
  report(`scenario:token-rollover (${ttlS} s tokens, ${runS} s)`, criteria, {
    samples,
    'samples not two-sided': gaps,
    'one-sided samples (venue buy/sell)': gapNotes.slice(0, 20).join('; ') || 'none',
    '"order stream down" log lines': lost,
    'fills (metric)': fillsBot,
    'error log lines': bot.lines.filter((l) => l.level === 'error' || l.level === 'fatal').length,
  });
} finally {
  if (bot.proc.exitCode === null) bot.proc.kill('SIGKILL');
  await sim.stop();
}
// report() set the code; exit now that the venue is stopped, whatever client pool is still open.
process.exit(process.exitCode ?? 1);
