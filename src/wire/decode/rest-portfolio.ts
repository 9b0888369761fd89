/** REST decoders: whoami, balances, positions, risk snapshot, fills, ledgers, sandbox transfers. */
import type {
  WireAccountEntry,
  WireBalance,
  WireBalancesResponse,
  WireFillsResponse,
  WireFundingTransaction,
  WireFundingTransactionsResponse,
  WireLiquidationsResponse,
  WirePosition,
  WirePositionsResponse,
  WireRiskPerSymbol,
  WireRiskSnapshot,
  WireRiskSnapshotResponse,
  WireSandboxTransferRequest,
  WireTimeseriesQuery,
  WireTransaction,
  WireTransactionsQuery,
  WireTransactionsResponse,
  WireWhoAmI,
} from '../types/rest-portfolio.ts';
import { fundingTxType, sortTs, transactionType } from './enums.ts';
import { arrayOf, fail, isRec, nullable, obj, optional, optNull, recordOf, type Decoder, type Rec } from './kit.ts';
import { bool, dateTime, dec, int, intLike, intOrDateTime, nsLike, str } from './scalars.ts';
import { readFills } from './rest-orders.ts';

const optStr = optional(str);
const optBool = optional(bool);
const optDec = optNull(dec);
const optUint = optional(int);
const optCursor = optNull(str);

const account = obj<WireAccountEntry>(
  {
    id: str,
    name: optNull(str),
    is_close_only: optBool,
    is_frozen: optBool,
    maker_fee: dec,
    taker_fee: dec,
    can_list: bool,
    can_read: bool,
    can_set_limits: bool,
    can_reduce_or_close: bool,
    can_trade: bool,
  },
  'account object',
);
/** Decodes a WireWhoAmI. */
export const readWhoAmI = obj<WireWhoAmI>(
  {
    id: str,
    username: str,
    pseudonym: optNull(str),
    created_at: optional(dateTime),
    is_onboarded: optBool,
    is_frozen: optBool,
    is_admin: optBool,
    require_2fa: optBool,
    enabled_2fa: optBool,
    is_close_only: optBool,
    maker_fee: optional(dec),
    taker_fee: optional(dec),
    fiat_deposit_code: optNull(str),
    accounts: arrayOf(account, 'array of accounts'),
  },
  'whoami object',
);

const balance = obj<WireBalance>({ account_id: str, symbol: str, amount: dec }, 'balance object');
/** Decodes a WireBalancesResponse. */
export const readBalancesResponse = obj<WireBalancesResponse>(
  { balances: arrayOf(balance, 'array of balances'), usd_borrow: optional(dec) },
  'balances response',
);

/**
 * Cost basis under either name: `signed_cost_basis` (current) or the deprecated `signed_notional`.
 * Reads the raw object so either one satisfies the requirement.
 */
function costBasis<T extends { signed_cost_basis: string; signed_notional?: string | undefined }>(out: T, raw: Rec, path: string): T {
  if (raw.signed_cost_basis === undefined && raw.signed_notional === undefined) {
    return fail(undefined, path, 'signed_cost_basis', 'decimal string (or deprecated signed_notional)');
  }
  if (raw.signed_cost_basis === undefined) return { ...out, signed_cost_basis: out.signed_notional as string };
  return out;
}
const costBasisField: Decoder<string> = (v, p, k) => (v === undefined ? (undefined as unknown as string) : dec(v, p, k));

const position = obj<WirePosition>(
  {
    account_id: str,
    symbol: str,
    signed_quantity: int,
    signed_cost_basis: costBasisField,
    signed_notional: optional(dec),
    realized_pnl: dec,
    timestamp: nullable(dateTime),
  },
  'position object',
  costBasis,
);
/** Decodes a WirePositionsResponse. */
export const readPositionsResponse = obj<WirePositionsResponse>({ positions: arrayOf(position, 'array of positions') }, 'positions response');

const perSymbol = obj<WireRiskPerSymbol>(
  {
    signed_quantity: int,
    signed_cost_basis: costBasisField,
    signed_notional: optional(dec),
    mark_price: optDec,
    signed_usd_notional: optDec,
    average_price: optDec,
    initial_margin_required_position: optDec,
    initial_margin_required_open_orders: optDec,
    initial_margin_required_total: optDec,
    maintenance_margin_required: optDec,
    unrealized_pnl: optDec,
    liquidation_price: optDec,
  },
  'per-symbol risk object',
  costBasis,
);
const riskSnapshot = obj<WireRiskSnapshot>(
  {
    account_id: str,
    timestamp_ns: intOrDateTime,
    per_symbol: recordOf(perSymbol),
    balance_usd: dec,
    equity: dec,
    initial_margin_available: dec,
    initial_margin_required_for_open_orders: dec,
    initial_margin_required_for_positions: dec,
    initial_margin_required_total: dec,
    maintenance_margin_available: dec,
    maintenance_margin_required: dec,
    unrealized_pnl: dec,
  },
  'risk snapshot object',
);
/** Decodes a WireRiskSnapshotResponse. */
export const readRiskSnapshotResponse = obj<WireRiskSnapshotResponse>({ risk_snapshot: riskSnapshot }, 'risk snapshot response');

const tsFields = {
  start_timestamp_ns: optional(nsLike),
  end_timestamp_ns: optional(nsLike),
  limit: optional(intLike),
  cursor: optStr,
  sort_ts: optional(sortTs),
  account_id: optStr,
  symbol: optStr,
};
/** Decodes a WireTimeseriesQuery. */
export const readTimeseriesQuery = obj<WireTimeseriesQuery>(tsFields, 'time-series query');
/** Decodes a WireTransactionsQuery. */
export const readTransactionsQuery = obj<WireTransactionsQuery>({ ...tsFields, transaction_types: optStr }, 'transactions query');

/** Decodes a WireFillsResponse. */
export const readFillsResponse = obj<WireFillsResponse>(
  { fills: readFills, limit: optUint, total_count: optUint, next_cursor: optCursor },
  'fills response',
);

const transaction = obj<WireTransaction>(
  {
    account_id: str,
    event_id: str,
    symbol: str,
    timestamp: dateTime,
    amount: dec,
    transaction_type: transactionType,
    reference_id: optNull(str),
    initiated_by_user_id: optNull(str),
  },
  'transaction object',
);
/** Decodes a WireTransactionsResponse. */
export const readTransactionsResponse = obj<WireTransactionsResponse>(
  { transactions: arrayOf(transaction, 'array of transactions'), next_cursor: optCursor, limit: optUint, total_count: optUint },
  'transactions response',
);

const anyObject: Decoder<Readonly<Record<string, unknown>>> = (v, p, k) => (isRec(v) ? v : fail(v, p, k, 'object'));
/** Decodes a WireLiquidationsResponse. */
export const readLiquidationsResponse = obj<WireLiquidationsResponse>(
  { liquidations: arrayOf(anyObject, 'array of liquidation objects'), next_cursor: optCursor, limit: optUint, total_count: optUint },
  'liquidations response',
);

const fundingTransaction = obj<WireFundingTransaction>(
  {
    account_id: str,
    amount: dec,
    currency: str,
    event_id: str,
    sequence_number: int,
    settlement_price: nullable(dec),
    symbol: str,
    timestamp: dateTime,
    transaction_type: fundingTxType,
    benchmark_price: optDec,
    funding_amount: optDec,
    funding_rate: optDec,
    reference_id: optNull(str),
  },
  'funding transaction object',
);
/** Decodes a WireFundingTransactionsResponse. */
export const readFundingTransactionsResponse = obj<WireFundingTransactionsResponse>(
  {
    funding_transactions: arrayOf(fundingTransaction, 'array of funding transactions'),
    limit: optUint,
    next_cursor: optCursor,
    total_count: optUint,
  },
  'funding transactions response',
);

/** Decodes a WireSandboxTransferRequest. */
export const readSandboxTransferRequest = obj<WireSandboxTransferRequest>(
  { amount: dec, symbol: str, account_id: optStr },
  'sandbox transfer request',
);
/** Decodes a WireSandboxTransferResponse: the venue documents no shape, so any JSON object. */
export const readSandboxTransferResponse = anyObject;
