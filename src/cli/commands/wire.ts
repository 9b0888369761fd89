import { readFileSync } from 'node:fs';
import { MmError } from '../../core/errors.ts';
import { checkWireText, isWireMessageType, WIRE_MESSAGE_TYPES, type WireMessageType } from '../../wire/index.ts';
import { flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const wrap = (words: readonly string[], indent: string, width = 96): string => {
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + w.length + 2 > width - indent.length) {
      lines.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}, ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines.map((l) => indent + l).join(',\n');
};

const usage = `usage: mmbot wire check <file>... [--as <type>]

  check    decode saved venue payloads (REST bodies or WS frames) with the wire decoders.
           Each file holds one JSON value (pretty-printed is fine) or one JSON value per line.
           Prints "OK <type>" per file (per line for JSONL) or the first error with its JSON
           path; exits 1 if anything fails. Run it when the venue changes its API.
           --as <type>  decode as this message type instead of inferring it from the shape
                        (WS frames by "t", replies by rid/res/err/result/error, REST by keys)

  types:
${wrap(WIRE_MESSAGE_TYPES, '    ')}`;

/** `mmbot wire check`: validates saved venue payloads against the wire protocol. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.wire,
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub !== 'check') throw new MmError('USAGE', sub ? `unknown subcommand "${sub}"` : 'wire needs a subcommand');
    const p = parseArgs(rest, { valued: ['as'] });
    const asName = flagString(p, 'as');
    if (asName !== undefined && !isWireMessageType(asName)) throw new MmError('USAGE', `--as: unknown message type "${asName}"`);
    const as = asName as WireMessageType | undefined;
    if (p.positional.length === 0) throw new MmError('USAGE', 'wire check needs at least one file');
    let failures = 0;
    for (const file of p.positional) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        failures++;
        process.stdout.write(`${file}: FAIL cannot read (${e instanceof Error ? e.message : String(e)})\n`);
        continue;
      }
      for (const r of checkWireText(text, as)) {
        const where = r.line === null ? file : `${file}:${r.line}`;
        if (!r.ok) failures++;
        process.stdout.write(r.ok ? `${where}: ${r.message}\n` : `${where}: FAIL ${r.message}\n`);
      }
    }
    return failures === 0 ? 0 : 1;
  },
};
