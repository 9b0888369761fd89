#!/usr/bin/env node
// Runs a TypeScript entry point through tsx's loader, so the sources run without a build step.
import './register-ts.js';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: run-ts <file.ts> [args...]\n');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);
