#!/usr/bin/env node
import { ExitCode, errorMessage } from '../core/errors.js';
import { killAllChildren } from '../core/process.js';
import { main } from './main.js';

function onSignal(signal: NodeJS.Signals): void {
  // Children run in their own process groups, so a Ctrl-C to us does not reach them unless we pass it on.
  killAllChildren();
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tollgate: internal error: ${errorMessage(error)}\n`);
    process.exitCode = ExitCode.internal;
  },
);
