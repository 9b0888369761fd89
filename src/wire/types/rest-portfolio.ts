/** Portfolio and account REST (`/api/whoami`, balances, positions, risk, fills, ledgers, sandbox). */
import type {
  DateTimeString,
  DecimalString,
  EpochNsString,
  WireEnum,
  WireFundingTxType,
  WireSortTs,
  WireTransactionType,
} from './common.ts';
import type { WireFill } from './order.ts';

/** An account entry on whoami; fees are fractions (`"0.0002"` = 2 bp). */
export interface WireAccountEntry {
  readonly id: string;
  readonly name?: string | null | undefined;
  readonly is_close_only?: boolean | undefined;
  readonly is_frozen?: boolean | undefined;
  readonly maker_fee: DecimalString;
  readonly taker_fee: DecimalString;
  readonly can_list: boolean;
  readonly can_read: boolean;
  readonly can_set_limits: boolean;
  readonly can_reduce_or_close: boolean;
  readonly can_trade: boolean;
}
/** `GET /api/whoami`. The seed's user-level fee/2FA/close-only fields are absent on the real venue. */
export interface WireWhoAmI {
  readonly id: string;
  readonly username: string;
  readonly pseudonym?: string | null | undefined;
  readonly created_at?: DateTimeString | undefined;
  readonly is_onboarded?: boolean | undefined;
  readonly is_frozen?: boolean | undefined;
  readonly is_admin?: boolean | undefined;
  readonly require_2fa?: boolean | undefined;
  readonly enabled_2fa?: boolean | undefined;
  readonly is_close_only?: boolean | undefined;
  readonly maker_fee?: DecimalString | undefined;
  readonly taker_fee?: DecimalString | undefined;
  readonly fiat_deposit_code?: string | null | undefined;
  readonly accounts: readonly WireAccountEntry[];
}

/** One balance row. */
export interface WireBalance {
  readonly account_id: string;
  readonly symbol: string;
  readonly amount: DecimalString;
}
/** `GET /api/balances`. */
export interface WireBalancesResponse {
  readonly balances: readonly WireBalance[];
  readonly usd_borrow?: DecimalString | undefined;
}

/**
 * A position. `signed_notional` is the deprecated name of `signed_cost_basis`; the decoder fills
 * `signed_cost_basis` from either.
 */
export interface WirePosition {
  readonly account_id: string;
  readonly symbol: string;
  readonly signed_quantity: number;
  readonly signed_cost_basis: DecimalString;
  readonly signed_notional?: DecimalString | undefined;
  readonly realized_pnl: DecimalString;
  /** Last fill time. */
  readonly timestamp: DateTimeString | null;
}
/** `GET /api/positions`. */
export interface WirePositionsResponse {
  readonly positions: readonly WirePosition[];
}

/** A per-symbol risk entry; the optional ones are null when flat. */
export interface WireRiskPerSymbol {
  readonly signed_quantity: number;
  readonly signed_cost_basis: DecimalString;
  readonly signed_notional?: DecimalString | undefined;
  readonly mark_price?: DecimalString | null | undefined;
  readonly signed_usd_notional?: DecimalString | null | undefined;
  readonly average_price?: DecimalString | null | undefined;
  readonly initial_margin_required_position?: DecimalString | null | undefined;
  readonly initial_margin_required_open_orders?: DecimalString | null | undefined;
  readonly initial_margin_required_total?: DecimalString | null | undefined;
  readonly maintenance_margin_required?: DecimalString | null | undefined;
  readonly unrealized_pnl?: DecimalString | null | undefined;
  readonly liquidation_price?: DecimalString | null | undefined;
}
/** The risk snapshot; `timestamp_ns` is RFC 3339 on the real venue despite its name (or an integer). */
export interface WireRiskSnapshot {
  readonly account_id: string;
  readonly timestamp_ns: DateTimeString | number;
  readonly per_symbol: Readonly<Record<string, WireRiskPerSymbol>>;
  readonly balance_usd: DecimalString;
  readonly equity: DecimalString;
  readonly initial_margin_available: DecimalString;
  readonly initial_margin_required_for_open_orders: DecimalString;
  readonly initial_margin_required_for_positions: DecimalString;
  readonly initial_margin_required_total: DecimalString;
  readonly maintenance_margin_available: DecimalString;
  readonly maintenance_margin_required: DecimalString;
  readonly unrealized_pnl: DecimalString;
}
/** `GET /api/risk-snapshot`. */
export interface WireRiskSnapshotResponse {
  readonly risk_snapshot: WireRiskSnapshot;
}

/** Time-series (cursor) query shared by fills, transactions, liquidations, funding, prices. */
export interface WireTimeseriesQuery {
  readonly start_timestamp_ns?: EpochNsString | undefined;
  readonly end_timestamp_ns?: EpochNsString | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly sort_ts?: WireEnum<WireSortTs> | undefined;
  readonly account_id?: string | undefined;
  readonly symbol?: string | undefined;
}
/** `GET /api/fills` query (time range required, ≤ 7 days). */
export type WireFillsQuery = WireTimeseriesQuery;
/** `GET /api/fills` response, newest first. */
export interface WireFillsResponse {
  readonly fills: readonly WireFill[];
  readonly limit?: number | undefined;
  readonly total_count?: number | undefined;
  readonly next_cursor?: string | null | undefined;
}

/** `GET /api/transactions` query: `transaction_types` is one comma-separated value. */
export interface WireTransactionsQuery extends WireTimeseriesQuery {
  readonly transaction_types?: string | undefined;
}
/** A ledger transaction (fee rows negative; `reference_id` like `ax-fill://<trade_id>`). */
export interface WireTransaction {
  readonly account_id: string;
  readonly event_id: string;
  readonly symbol: string;
  readonly timestamp: DateTimeString;
  readonly amount: DecimalString;
  readonly transaction_type: WireEnum<WireTransactionType>;
  readonly reference_id?: string | null | undefined;
  readonly initiated_by_user_id?: string | null | undefined;
}
/** `GET /api/transactions` response. */
export interface WireTransactionsResponse {
  readonly transactions: readonly WireTransaction[];
  readonly next_cursor?: string | null | undefined;
  readonly limit?: number | undefined;
  readonly total_count?: number | undefined;
}

/** `GET /api/liquidations` query. */
export type WireLiquidationsQuery = WireTimeseriesQuery;
/** `GET /api/liquidations` response; record shape unknown, kept as objects. */
export interface WireLiquidationsResponse {
  readonly liquidations: readonly Readonly<Record<string, unknown>>[];
  readonly next_cursor?: string | null | undefined;
  readonly limit?: number | undefined;
  readonly total_count?: number | undefined;
}

/** `GET /api/funding-transactions` query (time range optional, unbounded). */
export type WireFundingTransactionsQuery = WireTimeseriesQuery;
/** One funding cash posting. */
export interface WireFundingTransaction {
  readonly account_id: string;
  readonly amount: DecimalString;
  readonly currency: string;
  readonly event_id: string;
  readonly sequence_number: number;
  readonly settlement_price: DecimalString | null;
  readonly symbol: string;
  readonly timestamp: DateTimeString;
  readonly transaction_type: WireEnum<WireFundingTxType>;
  readonly benchmark_price?: DecimalString | null | undefined;
  readonly funding_amount?: DecimalString | null | undefined;
  readonly funding_rate?: DecimalString | null | undefined;
  readonly reference_id?: string | null | undefined;
}
/** `GET /api/funding-transactions` response. */
export interface WireFundingTransactionsResponse {
  readonly funding_transactions: readonly WireFundingTransaction[];
  readonly limit?: number | undefined;
  readonly next_cursor?: string | null | undefined;
  readonly total_count?: number | undefined;
}

/** `POST /api/sandbox/withdraw` and `/api/sandbox/deposit` body. */
export interface WireSandboxTransferRequest {
  readonly amount: DecimalString;
  readonly symbol: string;
  readonly account_id?: string | undefined;
}
/** Sandbox transfer response: shape unknown upstream; kept as an object. */
export type WireSandboxTransferResponse = Readonly<Record<string, unknown>>;
