/**
 * `npm run scenario:rate-limit` (issue 12, item 2; issue 23, build 2): a daemon trading a separate
 * `mmbot sim` whose rate limit is burst 4 / 1 request per second, through a fault proxy that cuts
 * every connection at random for the first phase. After the faults, in a quiet minute:
 *   - no 429 at all (every request, reads included, goes through the learned budget),
 *   - the venue holds our orders in ≥ 4 of 5 samples spread over the minute,
 *   - the bot's acknowledged open orders (mmbot_open_orders) equal the venue's in ≥ 4 of 5 quiet
 *     samples (quiet: nothing queued, in flight or unresolved at the bot),
 *   - the venue shows our quotes on both sides in ≥ 80% of 1 s samples;
 * then on SIGINT the venue holds 0 of our orders and the bot's final position and fill count equal
 * the venue's. Prints the figures; exits 1 when a criterion fails.
 * Options: --fault-s N (default 60), --quiet-s N (default 60), --seed N.
 */
import { flagNumber, parseArgs } from '../../src/cli/args.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { finalLine, metricsUrl, report, scrape, scratch, sleep, startBot, startSim, sum, venueView, type Criterion } from './scenario-kit.ts';

const args = parseArgs(process.argv.slice(2), { valued: ['fault-s', 'quiet-s', 'seed'] });
const faultS = flagNumber(args, 'fault-s') ?? 60;
const quietS = flagNumber(args, 'quiet-s') ?? 60;
const seed = flagNumber(args, 'seed') ?? 12;
const SYMBOL = 'EURUSD-PERP';

const dir = scratch();
const sim = await startSim(
  dir,
  `seed: ${seed}
rate_limit: { enabled: true, burst: 4, per_second: 1 }
instruments: { only: [${SYMBOL}] }
market: { symbols: [${SYMBOL}], step_ms: 200, defaults: { takers: { rate_per_min: 30 } } }
`,
);
const proxy = await startFaultProxy(sim.creds.base_url);
const venue = await venueView(sim.creds);
const t0 = Date.now();
process.stderr.write(`scenario rate-limit: sim ${sim.creds.base_url} (burst 4, 1/s), proxy ${proxy.baseUrl}; ${faultS} s of random cuts, then ${quietS} s quiet\n`);
const bot = startBot(dir, sim.creds, { baseUrl: proxy.baseUrl, wsUrl: proxy.wsUrl });
let exitCode: number | string = 'not stopped';
try {
  const url = await metricsUrl(bot);
  await bot.waitFor((l) => l.msg === 'order stream connected', 30_000, 'the order stream');

  // Phase 1: cut every connection (both sockets, pooled HTTP) at random intervals of 2-10 s.
  let cuts = 0;
  const faultEnd = Date.now() + faultS * 1000;
  let rnd = seed;
  const random = (): number => ((rnd = (rnd * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  while (Date.now() < faultEnd) {
    await sleep(Math.min(faultEnd - Date.now(), 2_000 + random() * 8_000));
    if (Date.now() >= faultEnd) break;
    proxy.dropConnections();
    cuts++;
  }
  process.stderr.write(`  ${cuts} cuts done; quiet phase\n`);
  await sleep(5_000);

  // Phase 2: two-sidedness at 1 Hz, and quiet samples of bot vs venue open orders.
  const quietStart = Date.now();
  const quietEnd = quietStart + quietS * 1000;
  const limitedAtQuietStart = sum(await scrape(url), 'mmbot_venue_backoffs_total', { code: 'RATE_LIMITED' });
  // Five samples of what the venue holds of ours, one at the start of each fifth of the quiet phase.
  const held: string[] = [];
  let samples = 0;
  let twoSided = 0;
  const matches: string[] = [];
  let lastQuietSampleMs = 0;
  while (Date.now() < quietEnd) {
    const v = await venue.openOrders();
    samples++;
    if (v.buy > 0 && v.sell > 0) twoSided++;
    if (held.length < 5 && Date.now() - quietStart >= (held.length * quietS * 1000) / 5) held.push(`${v.buy}/${v.sell}`);
    if (matches.length < 5 && Date.now() - lastQuietSampleMs >= 5_000) {
      // A quiet moment at the bot: nothing queued, in flight or unresolved.
      for (let tries = 0; tries < 30; tries++) {
        const m = await scrape(url);
        const busy = sum(m, 'mmbot_execution_queued_requests') + sum(m, 'mmbot_execution_in_flight_requests') + sum(m, 'mmbot_orders_pending');
        if (busy === 0) {
          const venueNow = await venue.openOrders();
          const after = await scrape(url);
          const botBuy = sum(m, 'mmbot_open_orders', { side: 'buy' });
          const botSell = sum(m, 'mmbot_open_orders', { side: 'sell' });
          const stable = sum(after, 'mmbot_open_orders') === botBuy + botSell;
          matches.push(`${botBuy}/${botSell} vs ${venueNow.buy}/${venueNow.sell}${botBuy === venueNow.buy && botSell === venueNow.sell && stable ? ' =' : ' ≠'}`);
          lastQuietSampleMs = Date.now();
          break;
        }
        await sleep(100);
      }
    }
    await sleep(1_000);
  }
  const m = await scrape(url);
  const limitedInQuiet = sum(m, 'mmbot_venue_backoffs_total', { code: 'RATE_LIMITED' }) - limitedAtQuietStart;
  const limitedTotal = sum(m, 'mmbot_venue_backoffs_total', { code: 'RATE_LIMITED' });
  const rate = sum(m, 'mmbot_rate_limiter_rate_per_second');
  const burst = sum(m, 'mmbot_rate_limiter_capacity_requests');
  const reconnects = sum(m, 'mmbot_connection_reconnects_total', { stream: 'orders' });
  const rejects429 = sum(m, 'mmbot_rejects_total', { reason: 'RATE_LIMITED' });
  const intents = sum(m, 'mmbot_intents_total');

  bot.proc.kill('SIGINT');
  exitCode = await bot.exited;
  await sleep(500);
  const left = await venue.openOrders();
  const fin = finalLine(bot);
  const venuePos = await venue.position(SYMBOL);
  const venueFills = await venue.fillCount(t0 - 60_000);
  const equalSamples = matches.filter((x) => x.endsWith('=')).length;
  const heldCount = held.filter((x) => x !== '0/0').length;
  const criteria: Criterion[] = [
    { name: `429s in the quiet ${quietS} s`, value: String(limitedInQuiet), target: '0', ok: limitedInQuiet === 0 },
    { name: 'venue holds our orders (5 quiet samples)', value: `${heldCount}/${held.length}`, target: '≥ 4 of 5', ok: held.length === 5 && heldCount >= 4 },
    { name: 'quiet samples bot open orders = venue', value: `${equalSamples}/${matches.length}`, target: '≥ 4 of 5', ok: matches.length === 5 && equalSamples >= 4 },
    { name: 'two-sided quoting (venue, 1 Hz)', value: `${((100 * twoSided) / Math.max(1, samples)).toFixed(1)}%`, target: '≥ 80%', ok: twoSided / Math.max(1, samples) >= 0.8 },
    { name: 'orders left at the venue after SIGINT', value: String(left.buy + left.sell), target: '0', ok: left.buy + left.sell === 0 },
    { name: 'final position bot = venue', value: `${fin?.positions[SYMBOL] ?? 'n/a'} / ${venuePos}`, target: 'equal', ok: fin !== undefined && (fin.positions[SYMBOL] ?? 0) === venuePos },
    { name: 'fill count bot = venue', value: `${fin?.fills ?? 'n/a'} / ${venueFills}`, target: 'equal', ok: fin !== undefined && fin.fills === venueFills },
    { name: 'daemon exit code', value: String(exitCode), target: '0', ok: exitCode === 0 },
  ];
  report('scenario:rate-limit (venue burst 4, 1 req/s; random connection cuts)', criteria, {
    'connection cuts': cuts,
    'order-stream reconnects': reconnects,
    'quiet samples (bot buy/sell vs venue)': matches.join(', '),
    'learned rate at the end (req/s)': rate.toFixed(2),
    'learned burst at the end': burst,
    'intents sent': intents,
    '429 rejects seen by the engine': rejects429,
    '429 answers, whole run (any request)': limitedTotal,
    'venue samples (our buy/sell)': held.join(', '),
    'error log lines': bot.lines.filter((l) => l.level === 'error' || l.level === 'fatal').length,
  });
} finally {
  if (bot.proc.exitCode === null) bot.proc.kill('SIGKILL');
  await proxy.close();
  await sim.stop();
}
// report() set the code; exit now that the venue is stopped, whatever client pool is still open.
process.exit(process.exitCode ?? 1);
