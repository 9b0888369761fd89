/** REST decoders: authentication, API keys, health, error bodies. */
import type { WireErrorBody } from '../types/common.ts';
import type {
  WireApiKeyPermissions,
  WireAuthenticateRequest,
  WireAuthenticateResponse,
  WireCreateApiKeyRequest,
  WireCreateApiKeyResponse,
  WireHealthResponse,
  WireRevokeApiKeyRequest,
  WireUpdateAllowedIpsRequest,
} from '../types/rest-auth.ts';
import { arrayOf, isRec, obj, optional, fail, type Decoder } from './kit.ts';
import { bool, dateTime, str, uint } from './scalars.ts';

const optBool = optional(bool);
const strings = arrayOf(str, 'array of strings');

/** Decodes a WireAuthenticateRequest. */
export const readAuthenticateRequest = obj<WireAuthenticateRequest>(
  { api_key: str, api_secret: str, expiration_seconds: optional(uint) },
  'authenticate request',
);
/** Decodes a WireAuthenticateResponse. */
export const readAuthenticateResponse = obj<WireAuthenticateResponse>({ token: str }, 'authenticate response');
const permissions = obj<WireApiKeyPermissions>(
  { can_list: optBool, can_read: optBool, can_reduce_or_close: optBool, can_set_limits: optBool, can_trade: optBool },
  'permissions object',
);
/** Decodes a WireCreateApiKeyRequest. */
export const readCreateApiKeyRequest = obj<WireCreateApiKeyRequest>(
  { account_ids: optional(strings), allowed_ips: optional(strings), permissions: optional(permissions) },
  'create API key request',
);
/** Decodes a WireCreateApiKeyResponse. */
export const readCreateApiKeyResponse = obj<WireCreateApiKeyResponse>({ api_key: str, api_secret: str }, 'create API key response');
/** Decodes a WireRevokeApiKeyRequest. */
export const readRevokeApiKeyRequest = obj<WireRevokeApiKeyRequest>({ api_key: str }, 'revoke API key request');
/** Decodes a WireUpdateAllowedIpsRequest. */
export const readUpdateAllowedIpsRequest = obj<WireUpdateAllowedIpsRequest>({ api_key: str, allowed_ips: strings }, 'allowed IPs request');
/** Decodes a WireHealthResponse. */
export const readHealthResponse = obj<WireHealthResponse>({ status: str, timestamp: dateTime, version: optional(str) }, 'health response');
/** Decodes a WireErrorBody. */
export const readErrorBody = obj<WireErrorBody>({ error: str }, 'error body {error}');

/** An empty JSON object (extras ignored). */
export const readEmpty: Decoder<Record<string, never>> = (v, p, k) => (isRec(v) ? {} : fail(v, p, k, 'object'));
