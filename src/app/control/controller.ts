import { Counter, type Registry } from 'prom-client';
import { checkStrategyParams, loadConfig, type BotConfig, type StrategyLookup } from '../../config/index.ts';
import { MmError } from '../../core/errors.ts';
import { asSymbol } from '../../core/ids.ts';
import type { FlattenResult, OperableEngine } from '../../engine/index.ts';
import type { Logger } from '../../obs/logger.ts';
import type { StrategyDefinition } from '../../strategy/index.ts';
import { engineConfigs } from '../live/engine-config.ts';
import { definitionOf, instantiate } from '../live/strategies.ts';
import { AuthFailureLog } from './auth-failures.ts';
import type { ConsoleHistory } from './history.ts';
import { planReload } from './reload.ts';
import type { StrategyInfo } from './state.ts';

/** The outcome of an action: an HTTP status and a JSON body. */
export interface ActionResult {
  readonly status: number;
  readonly body: { readonly ok: boolean; readonly message: string; readonly [k: string]: unknown };
}

/** The actions the console and `mmbot ctl` can take. */
export type ActionName = 'pause' | 'resume' | 'set' | 'flatten' | 'cancel-all' | 'trip-kill' | 'reset-kill' | 'reload';

interface Managed extends StrategyInfo {
  readonly index: number;
  readonly definition: StrategyDefinition;
  readonly overlays: BotConfig['bot']['strategies'][number]['overlays'];
}

const ok = (message: string, extra: Record<string, unknown> = {}): ActionResult => ({ status: 200, body: { ok: true, message, ...extra } });
const fail = (status: number, message: string, extra: Record<string, unknown> = {}): ActionResult => ({ status, body: { ok: false, message, ...extra } });

/**
 * Carries out operator actions on the running engine; each is logged (who, what, result, never the
 * token) and counted in `mmbot_control_actions_total{action,result}`. Strategy params are checked by
 * the strategy's own schema before anything changes; a config reload applies only strategy params
 * and risk limits and refuses (changing nothing) when anything else differs.
 */
export class ConsoleController {
  #config: BotConfig;
  readonly #managed: Managed[];
  #counter: Counter<'action' | 'result'> | null = null;
  readonly #refusals: AuthFailureLog;

  private constructor(
    config: BotConfig,
    managed: Managed[],
    private readonly engine: OperableEngine,
    private readonly lookup: StrategyLookup,
    private readonly log: Logger,
    private readonly history: ConsoleHistory,
    private readonly nowMs: () => number,
  ) {
    this.#config = config;
    this.#managed = managed;
    this.#refusals = new AuthFailureLog(log, nowMs);
  }

  /** Resolves every strategy's definition (built-in or module) up front. */
  static async create(config: BotConfig, engine: OperableEngine, lookup: StrategyLookup, log: Logger, history: ConsoleHistory, nowMs: () => number): Promise<ConsoleController> {
    const managed: Managed[] = [];
    for (const [index, e] of config.bot.strategies.entries()) {
      const definition = await definitionOf(e, config, lookup);
      const params = e.paramsChecked ? e.params : checkStrategyParams(definition, e.params, { file: config.source.file, index });
      managed.push({ id: e.id, strategy: e.strategy, params: params as Readonly<Record<string, unknown>>, index, definition, overlays: e.overlays });
    }
    return new ConsoleController(config, managed, engine, lookup, log, history, nowMs);
  }

  /** Registers the action counter (once the metrics registry exists). */
  register(registry: Registry): void {
    this.#counter = new Counter({ name: 'mmbot_control_actions_total', help: 'Operator actions through the control API, by action and result (ok, refused, unauthorized, error).', labelNames: ['action', 'result'], registers: [registry] });
  }

  /** The strategies with their live params. */
  get strategies(): readonly StrategyInfo[] {
    return this.#managed;
  }

  /** The running config (after reloads). */
  get config(): BotConfig {
    return this.#config;
  }

  /** Counts a refused request (no token, wrong token); logged at most once per interval plus a summary. */
  unauthorized(action: string, actor: string, reason: string): void {
    this.#counter?.inc({ action, result: 'unauthorized' });
    this.#refusals.note(action, actor, reason);
  }

  /** Counts and logs (the audit line) an authenticated POST that names no action: 404, or 400 for a malformed path. */
  rejected(actor: string, status: number, message: string): void {
    this.#counter?.inc({ action: 'unknown', result: 'refused' });
    this.log.warn({ actor, action: 'unknown', result: 'refused', status }, `control: request by ${actor} refused (${status}): ${message}`);
  }

  /** Writes the summary of refusals not yet logged (the console's timer calls it). */
  flushRefusals(): void {
    this.#refusals.flush();
  }

  /** Runs one action; never throws (failures are results). */
  async act(action: ActionName, target: string | null, body: Record<string, unknown>, actor: string): Promise<ActionResult> {
    let r: ActionResult;
    try {
      r = await this.#run(action, target, body);
    } catch (e) {
      r = e instanceof RangeError ? fail(404, e.message) : fail(500, e instanceof Error ? e.message : String(e));
    }
    const result = r.body.ok ? 'ok' : r.status >= 500 ? 'error' : 'refused';
    this.#counter?.inc({ action, result });
    const what = `${action}${target ? ` ${target}` : ''}`;
    this.log[r.body.ok ? 'info' : 'warn']({ actor, action, target, result, status: r.status, detail: r.body }, `control: ${what} by ${actor}: ${result}: ${r.body.message}`);
    this.history.alert(r.body.ok ? 'info' : 'warn', `operator ${what} (${actor.split(' ')[0]}): ${r.body.message}`, this.nowMs());
    return r;
  }

  async #run(action: ActionName, target: string | null, body: Record<string, unknown>): Promise<ActionResult> {
    const need = (): Managed => {
      const m = this.#managed.find((x) => x.id === target);
      if (!m) throw new RangeError(`no strategy "${target ?? ''}" (known: ${this.#managed.map((x) => x.id).join(', ')})`);
      return m;
    };
    switch (action) {
      case 'pause':
        this.engine.pauseStrategy(need().id);
        return ok(`${target} paused: its quotes are pulled`);
      case 'resume':
        this.engine.resumeStrategy(need().id);
        return ok(`${target} resumed`);
      case 'set':
        return this.#set(need(), body.params);
      case 'flatten': {
        const m = need();
        const op = this.engine.operatorStates().find((o) => o.id === m.id)!;
        const only = typeof body.symbol === 'string' ? body.symbol : null;
        if (only !== null && !op.symbols.includes(asSymbol(only))) return fail(400, `${m.id} does not trade ${only} (it trades ${op.symbols.join(', ')})`);
        const results: Record<string, FlattenResult> = {};
        for (const s of op.symbols) if (only === null || s === only) results[s] = this.engine.flatten(s);
        const text = Object.entries(results).map(([s, x]) => (x.sent ? `${s}: ${x.side} ${x.qty} IOC @ ${x.priceTicks}t (position ${x.positionQty})` : `${s}: nothing sent (${x.reason}, position ${x.positionQty})`));
        return ok(`${m.id} halted; ${text.join('; ')}`, { results });
      }
      case 'cancel-all':
        this.engine.cancelAll();
        return ok('every order cancelled; every strategy paused (resume each to quote again)');
      case 'trip-kill': {
        const was = this.engine.snapshot().killSwitch;
        if (was.tripped) return ok(`kill switch already tripped (${was.reason ?? '?'}: ${was.detail ?? ''})`);
        const detail = typeof body.detail === 'string' && body.detail !== '' ? body.detail : 'tripped by the operator';
        this.engine.tripKillSwitch(detail);
        return ok(`kill switch tripped: every quote pulled (${detail})`);
      }
      case 'reset-kill': {
        const was = this.engine.snapshot().killSwitch;
        if (!was.tripped) return ok('kill switch was not tripped');
        this.engine.resetKillSwitch();
        const now = this.engine.snapshot().killSwitch;
        return now.tripped ? fail(409, `kill switch still tripped: ${now.reason ?? ''} ${now.detail ?? ''}`.trim()) : ok(`kill switch reset (was ${was.reason ?? '?'}: ${was.detail ?? ''})`);
      }
      case 'reload':
        return this.reload();
    }
  }

  #set(m: Managed, patch: unknown): ActionResult {
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch) || Object.keys(patch).length === 0)
      return fail(400, 'set needs { "params": { "<name>": <value>, ... } } with at least one parameter');
    const merged = { ...m.params, ...(patch as Record<string, unknown>) };
    let checked: Readonly<Record<string, unknown>>;
    try {
      checked = checkStrategyParams(m.definition, merged, { file: 'control', index: m.index });
    } catch (e) {
      if (!(e instanceof MmError)) throw e;
      const problems = (e.details?.problems as { path: string; message: string }[] | undefined)?.map((p) => ({ path: p.path.replace(/^bot\.strategies\[\d+\]\./, ''), message: p.message }));
      return fail(400, `refused (nothing changed): ${(problems ?? []).map((p) => `${p.path}: ${p.message}`).join('; ') || e.message}`, { problems });
    }
    this.engine.replaceStrategy(m.id, instantiate(m.definition, checked, m.overlays));
    const changed = Object.keys(patch).filter((k) => JSON.stringify(m.params[k]) !== JSON.stringify(checked[k]));
    m.params = checked;
    return ok(`${m.id} params applied${changed.length ? `: ${changed.map((k) => `${k}=${JSON.stringify(checked[k])}`).join(', ')}` : ' (no change)'}`, { params: checked });
  }

  /** Re-reads the config file: strategy params and risk limits apply live; anything else is refused and nothing changes. */
  async reload(): Promise<ActionResult> {
    const file = this.#config.source.file;
    let next: BotConfig;
    try {
      next = loadConfig(file, { env: process.env, strategies: this.lookup });
    } catch (e) {
      return fail(400, `reload refused (nothing changed): ${e instanceof Error ? e.message : String(e)}`);
    }
    const plan = planReload(this.#config, next);
    if (!plan.ok) return fail(409, `reload refused (nothing changed): these need a restart: ${plan.needsRestart.join(', ')}`, { needsRestart: plan.needsRestart });
    // Check every changed strategy's params first: one bad entry applies none.
    const built = [];
    for (const p of plan.params) {
      const m = this.#managed.find((x) => x.id === p.id)!;
      let checked;
      try {
        checked = next.bot.strategies[m.index]!.paramsChecked ? p.params : checkStrategyParams(m.definition, p.params, { file, index: m.index });
      } catch (e) {
        return fail(400, `reload refused (nothing changed): ${e instanceof Error ? e.message : String(e)}`);
      }
      built.push({ m, checked, strategy: instantiate(m.definition, checked, m.overlays) });
    }
    for (const b of built) {
      this.engine.replaceStrategy(b.m.id, b.strategy);
      b.m.params = b.checked;
    }
    if (plan.risk) this.engine.replaceRisk(engineConfigs(next).risk);
    this.#config = next;
    const what = [...built.map((b) => `${b.m.id} params`), ...(plan.risk ? ['risk limits'] : [])];
    return ok(what.length ? `config reloaded: applied ${what.join(', ')}` : 'config reloaded: nothing changed', { applied: what });
  }
}
