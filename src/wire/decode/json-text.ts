/**
 * Parsing venue JSON text: u64 client order ids above 2^53 must survive JSON.parse, so long
 * `cid`/`clord_id` integers are quoted first and reach the `cid` decoder as exact digit strings.
 */
import { err, type Result } from '../../core/result.ts';
import { decodeError, runDecoder, type Decoder, type DecodeError } from './kit.ts';

// One pass to detect a long id (the common case is none), a global replace only when there is one.
const LONG_ID_TEST = /"(?:cid|clord_id)" *: *[0-9]{16}/;
const LONG_ID_ALL = /("(?:cid|clord_id)" *: *)([0-9]{16,})/g;

/**
 * Quotes `cid`/`clord_id` integers too long for a double (16+ digits) so JSON.parse keeps them
 * exact: u64 client order ids above 2^53 would otherwise silently lose precision. One regex scan
 * when there is nothing to do.
 */
export function quoteLongIds(text: string): string {
  return LONG_ID_TEST.test(text) ? text.replace(LONG_ID_ALL, '$1"$2"') : text;
}

/**
 * JSON.parse that keeps long `cid`/`clord_id` integers exact (as digit strings). Use it for any
 * venue text that may carry client order ids (WS frames, REST order bodies).
 * @throws SyntaxError on invalid JSON, like JSON.parse.
 */
export const parseWireJson = (text: string): unknown => JSON.parse(quoteLongIds(text));

/** Parses JSON text (keeping long ids exact) and runs a decoder on it. Never throws. */
export function runDecoderOnText<T>(decoder: Decoder<T>, text: string): Result<T, DecodeError> {
  let value: unknown;
  try {
    value = parseWireJson(text);
  } catch (e) {
    return err(decodeError('$', 'valid JSON', e instanceof Error ? e.message : String(e)));
  }
  return runDecoder(decoder, value);
}
