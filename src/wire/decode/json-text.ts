/**
 * Parsing venue JSON text: u64 client order ids above 2^53 must survive JSON.parse, so long
 * `cid`/`clord_id` integers are quoted first and reach the `cid` decoder as exact digit strings.
 */
import { err, type Result } from '../../core/result.ts';
import { decodeError, runDecoder, takeInexactId, type Decoder, type DecodeError } from './kit.ts';

// A global replace only when a long id is present (the common case is none).
const LONG_ID_ALL = /("(?:cid|clord_id)" *: *)([0-9]{16,})/g;

/** True when `key` (a quoted JSON key) is followed somewhere in `text` by an integer of 16+ digits. */
function longIntegerAfter(text: string, key: string): boolean {
  for (let i = text.indexOf(key); i >= 0; i = text.indexOf(key, i + key.length)) {
    let j = i + key.length;
    while (text.charCodeAt(j) === 32) j++;
    if (text.charCodeAt(j) !== 58 /* : */) continue;
    j++;
    while (text.charCodeAt(j) === 32) j++;
    let digits = 0;
    for (let c = text.charCodeAt(j); c >= 48 && c <= 57; c = text.charCodeAt(++j)) digits++;
    if (digits >= 16) return true;
  }
  return false;
}

/**
 * Quotes `cid`/`clord_id` integers too long for a double (16+ digits) so JSON.parse keeps them
 * exact: u64 client order ids above 2^53 would otherwise silently lose precision. The check is two
 * `indexOf` scans, cheaper than a regex over the whole frame on the hot path.
 */
export function quoteLongIds(text: string): string {
  return longIntegerAfter(text, '"cid"') || longIntegerAfter(text, '"clord_id"') ? text.replace(LONG_ID_ALL, '$1"$2"') : text;
}

/**
 * JSON.parse that keeps long `cid`/`clord_id` integers exact (as digit strings). Use it for any
 * venue text that may carry client order ids (WS frames, REST order bodies).
 * @throws SyntaxError on invalid JSON, like JSON.parse.
 */
export const parseWireJson = (text: string): unknown => JSON.parse(quoteLongIds(text));

/**
 * Parses JSON text and runs a decoder on it, keeping long ids exact. Never throws. The hot path
 * parses plainly; only when the decoder met an id beyond 2^53 (which JSON.parse may have rounded)
 * is the text parsed again with long ids quoted.
 */
export function runDecoderOnText<T>(decoder: Decoder<T>, text: string): Result<T, DecodeError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return err(decodeError('$', 'valid JSON', e instanceof Error ? e.message : String(e)));
  }
  takeInexactId();
  const first = runDecoder(decoder, value);
  return takeInexactId() ? runDecoder(decoder, parseWireJson(text)) : first;
}
