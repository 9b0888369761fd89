/** Authentication, API keys, logout and health (`/api/...`). */
import type { DateTimeString } from './common.ts';

/** `POST /api/authenticate` body. Send `expiration_seconds` always (the SDK requires it). */
export interface WireAuthenticateRequest {
  readonly api_key: string;
  readonly api_secret: string;
  readonly expiration_seconds?: number | undefined;
}
/** `POST /api/authenticate` response. */
export interface WireAuthenticateResponse {
  readonly token: string;
}

/** API-key permissions (each omitted = not requested). */
export interface WireApiKeyPermissions {
  readonly can_list?: boolean | undefined;
  readonly can_read?: boolean | undefined;
  readonly can_reduce_or_close?: boolean | undefined;
  readonly can_set_limits?: boolean | undefined;
  readonly can_trade?: boolean | undefined;
}
/** `POST /api/api-keys` body (all optional: omitted = every account / full permissions). */
export interface WireCreateApiKeyRequest {
  readonly account_ids?: readonly string[] | undefined;
  readonly allowed_ips?: readonly string[] | undefined;
  readonly permissions?: WireApiKeyPermissions | undefined;
}
/** `POST /api/api-keys` response. */
export interface WireCreateApiKeyResponse {
  readonly api_key: string;
  readonly api_secret: string;
}
/** `DELETE /api/api-keys` body (shape inferred: the key to revoke). */
export interface WireRevokeApiKeyRequest {
  readonly api_key: string;
}
/** `PATCH /api/api-keys/allowed-ips` body (shape inferred). */
export interface WireUpdateAllowedIpsRequest {
  readonly api_key: string;
  readonly allowed_ips: readonly string[];
}
/** `GET /api/health`, `GET /orders/health`. */
export interface WireHealthResponse {
  readonly status: string;
  readonly timestamp: DateTimeString;
  readonly version?: string | undefined;
}
