/**
 * Checks saved venue payloads against the wire decoders (`mmbot wire check`). Text holds one JSON
 * value (pretty-printed is fine) or one JSON value per line (JSONL). Pure: no file I/O here.
 */
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
  let wholeOk = true;
  try {
    whole = JSON.parse(text);
  } catch {
    wholeOk = false;
  }
  if (wholeOk) return [checkValue(whole, as, null)];
  const out: WireCheckResult[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (l === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch (e) {
      out.push({ line: i + 1, type: null, ok: false, message: `$: invalid JSON (${e instanceof Error ? e.message : String(e)})` });
      continue;
    }
    out.push(checkValue(v, as, i + 1));
  }
  if (out.length === 0) out.push({ line: null, type: null, ok: false, message: '$: empty file (no JSON value)' });
  return out;
}
