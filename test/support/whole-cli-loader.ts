import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_PATH } from './run-cli.js';

/** The whole CLI's bundle, which bin/tollgate.cjs loads for every command without a bundle of its own. */
export const WHOLE_CLI = join(dirname(CLI_PATH), '..', 'dist/bundle/cli/tollgate.cjs');

/**
 * Writes a script into `folder` that loads the whole CLI's bundle as bin/tollgate.cjs loads a bundle (without the
 * code cache) and runs its command line; returns the script's path. The tests of a smaller bundle run the same command
 * lines through it and through bin, and expect the same answers.
 */
export function writeWholeCliLoader(folder: string): string {
  const loader = join(folder, 'whole-cli.cjs');
  writeFileSync(
    loader,
    `const vm = require('node:vm'); const fs = require('node:fs'); const path = require('node:path');
const Module = require('node:module');
const file = ${JSON.stringify(WHOLE_CLI)};
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(path.dirname(file));
const source = fs.readFileSync(file, 'latin1');
new vm.Script(source, { filename: file }).runInThisContext()(mod.exports, (r) => mod.require(r), mod, file, path.dirname(file));
mod.exports.runCli([process.argv[0], ${JSON.stringify(CLI_PATH)}, ...process.argv.slice(2)]);
`,
  );
  return loader;
}
