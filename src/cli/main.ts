import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MmError } from '../core/errors.ts';
import { installHeapProbe } from './heap-probe.ts';
import { COMMAND_SUMMARIES } from './command-summaries.ts';

/** A CLI command module: `src/cli/commands/<name>.ts` exports these. */
export interface Command {
  /** One line for `mmbot help`. */
  readonly summary: string;
  /** Usage text shown by `mmbot <command> --help` and on usage errors. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: readonly string[]): Promise<number>;
}

const COMMANDS_DIR = fileURLToPath(new URL('./commands/', import.meta.url));

function commandNames(): string[] {
  return readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function load(name: string): Promise<Command> {
  const mod = (await import(new URL(`./commands/${name}.ts`, import.meta.url).href)) as { command: Command };
  return mod.command;
}

function help(): string {
  const lines = ['usage: mmbot <command> [options]', '', 'commands:'];
  const names = commandNames();
  const width = Math.max(...names.map((n) => n.length)); // `walk-forward` overran a fixed 10
  const summaries: Readonly<Record<string, string>> = COMMAND_SUMMARIES;
  for (const name of names) lines.push(`  ${name.padEnd(width)} ${summaries[name] ?? ''}`);
  lines.push('', 'Run `mmbot <command> --help` for a command\'s options.');
  return lines.join('\n');
}

let stdoutGuarded = false;

/**
 * stdout's reader went away (`mmbot config schema | head`): a command ends quietly, as a Unix
 * filter does on SIGPIPE, where Node printed an unhandled-EPIPE stack trace. Not the daemon: it
 * must stop through its own shutdown, which cancels every order.
 */
function onStdoutError(name: string, e: NodeJS.ErrnoException): void {
  if (e.code !== 'EPIPE') throw e;
  if (name !== 'run') process.exit(0);
}

/** Entry point: dispatches `argv` to a command and returns the exit code. Never throws. */
export async function main(argv: readonly string[]): Promise<number> {
  installHeapProbe();
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`${help()}\n`);
    return name ? 0 : 2;
  }
  if (!commandNames().includes(name)) {
    process.stderr.write(`mmbot: unknown command "${name}"\n\n${help()}\n`);
    return 2;
  }
  if (!stdoutGuarded) process.stdout.on('error', (e: NodeJS.ErrnoException) => onStdoutError(name, e));
  stdoutGuarded = true; // once per process (tests call main many times)
  const command = await load(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof MmError) {
      process.stderr.write(`mmbot ${name}: ${e.code}: ${e.message}\n`);
      if (e.code === 'USAGE') process.stderr.write(`\n${command.usage}\n`);
      return e.kind === 'config' ? 2 : 1;
    }
    process.stderr.write(`mmbot ${name}: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}
