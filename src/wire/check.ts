/**
 * Checks saved venue payloads against the wire decoders (`mmbot wire check`). Text holds one JSON
 * value (pretty-printed is fine) or one JSON value per line (JSONL). Pure: no file I/O here.
 */
import { parseWireJson } from './decode/json-text.ts';
import { decodeAs, inferWireMessageType, type WireMessageType } from './decode/registry.ts';

/** The outcome for one value: its line (JSONL only), the type used, and the first error if any. */
export interface WireCheckResult {
  readonly line: number | null;
  readonly type: WireMessageType | null;
  readonly ok: boolean;
  readonly message: string;
}

function checkValue(value: unknown, as: WireMessageType | undefined, line: number | null): WireCheckResult {
  const type = as ?? inferWireMessageType(value);
  if (type === undefined) {
    return { line, type: null, ok: false, message: '$: cannot infer the message type from its shape (use --as <type>)' };
  }
  const r = decodeAs(type, value);
  return r.ok ? { line, type, ok: true, message: `OK ${type}` } : { line, type, ok: false, message: `${type}: ${r.error.message}` };
}

/** Checks every value in `text`; returns one result per value (per line for JSONL). */
export function checkWireText(text: string, as?: WireMessageType): WireCheckResult[] {
  let whole: unknown;
  let wholeError: string | null = null;
  try {
    whole = parseWireJson(text);
  } catch (e) {
    wholeError = e instanceof Error ? e.message : String(e);
  }
  if (wholeError === null) return [checkValue(whole, as, null)];
  const out: WireCheckResult[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (l === '') continue;
    let v: unknown;
    try {
      v = parseWireJson(l);
    } catch (e) {
      out.push({ line: i + 1, type: null, ok: false, message: `$: invalid JSON (${e instanceof Error ? e.message : String(e)})` });
      continue;
    }
    out.push(checkValue(v, as, i + 1));
  }
  if (out.length === 0) return [{ line: null, type: null, ok: false, message: '$: empty file (no JSON value)' }];
  // Not JSONL either (no line parses): one error for the file, not one per line.
  if (out.every((r) => r.type === null)) return [{ line: null, type: null, ok: false, message: `$: invalid JSON (${wholeError})` }];
  return out;
}
