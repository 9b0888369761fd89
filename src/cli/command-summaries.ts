/**
 * One line per CLI command for `mmbot help`, kept here rather than read from each command module:
 * `help` then loads no command (loading all fifteen took 1.2–1.7 s of module loading before the
 * list printed). Each command's `summary` is its entry here; a test checks every command has one.
 */
export const COMMAND_SUMMARIES = {
  backtest: 'replay recordings through the engine and report PnL, fills and quoting quality',
  config: 'validate a bot config, or print its JSON Schema',
  ctl: 'steer a running daemon: pause, resume, set params, flatten, cancel-all, kill, reset-kill, reload',
  import: 'import third-party market data (Tardis CSVs, LOBSTER files, Databento DBN) into a recording for backtests',
  new: 'scaffold a strategy project outside the repo (mmbot new strategy <name>)',
  record: 'record market data (books, trades, tickers, funding) to a gzip JSONL file for backtests',
  rewards: 'report market-maker reward accruals: totals by status, per-day trend (--json for scripts)',
  run: 'run the market-making daemon (npm start runs config/demo.yaml)',
  sim: 'run the local venue (matching, accounts, order entry, market data)',
  status: 'show a running daemon: strategies, quotes, positions, PnL (--watch refreshes)',
  strategies: 'list the built-in strategies and quote overlays with their parameters',
  sweep: 'run a parameter grid (or random / halving search) over data windows on threads or Redis workers and rank it',
  venue: 'check the configured venue before going live: host, login, permissions, symbols, clock, sockets, rate budget (venue check)',
  'walk-forward': 'walk-forward validation: choose parameters on a train window, score them on the next unseen one, roll forward',
  wire: 'check saved venue payloads against the wire protocol decoders',
  worker: 'serve distributed sweep jobs from Redis (mmbot sweep --backend redis://…)',
} as const;
