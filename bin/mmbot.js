#!/usr/bin/env node
// The mmbot CLI. Sources run through tsx's loaders: no build step after `npm ci`.
import './register-ts.js';

const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
