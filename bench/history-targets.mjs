#!/usr/bin/env node
// Every target a history scan hands the scanner over a range (path, commit, line map, lines owned and new, skip reason,
// content), hashed: run it with the build before and after a change to the history reading, on the same range, and the
// two lines must be equal (same count, same bytes, same hash): the change kept the coverage byte for byte.
//
// With --unordered, each target is hashed on its own and the sorted hashes are hashed: the same set of targets in any
// order (the rename pass reading only the added and deleted files of its commits hands the modified ones on earlier).
//
//   node bench/history-targets.mjs [--dist <build's dist folder>] [--unordered] <repository> <range>
//   node bench/history-targets.mjs --dist /tmp/before/dist bench/.cache/rails-worktree v7.2.0..v8.0.0
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const unordered = process.argv.includes('--unordered');
const args = process.argv.slice(2).filter((arg) => arg !== '--unordered');
const distAt = args.indexOf('--dist');
const dist = distAt === -1 ? join(dirname(fileURLToPath(import.meta.url)), '../dist') : resolve(args[distAt + 1]);
const [repo, range] = distAt === -1 ? args : args.filter((_, i) => i !== distAt && i !== distAt + 1);
if (!repo || !range) {
  console.error('usage: node bench/history-targets.mjs [--dist DIR] [--unordered] <repository> <range>');
  process.exit(2);
}
const { historyBatches } = await import(pathToFileURL(join(dist, 'secrets/sources/git-sources.js')).href);
const whole = createHash('sha256');
const each = [];
let targets = 0;
let bytes = 0;
for await (const batch of historyBatches({ repoRoot: resolve(repo), range })) {
  for (const target of batch) {
    const hash = unordered ? createHash('sha256') : whole;
    const content = target.skip ? null : await target.read();
    targets++;
    bytes += content?.length ?? 0;
    hash.update(
      JSON.stringify([target.path, target.commit, target.lineMap, target.onlyLines, target.newLines, target.skip]),
    );
    hash.update(
      content === null
        ? 'null'
        : typeof content === 'string'
          ? `s${content}`
          : Buffer.concat([Buffer.from('b'), content]),
    );
    if (unordered) each.push(hash.digest('hex'));
  }
}
if (unordered) for (const digest of each.sort()) whole.update(digest);
console.log(
  `${targets} targets, ${bytes} bytes, sha256 ${whole.digest('hex')} (${range}${unordered ? ', unordered' : ''})`,
);
