// Generated histories for bench/history.mjs, as git fast-import streams written to a file commit by commit. Both are
// deterministic (no clock, no randomness but a seeded generator): the same stream, byte for byte, on every run.
import { closeSync, openSync, writeSync } from 'node:fs';

/** A small seeded generator (mulberry32), so the corpus is the same on every machine. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['user', 'order', 'total', 'item', 'count', 'value', 'result', 'config', 'name', 'index', 'list', 'map'];

/** A line of code-like text, about 40–80 characters. */
function codeLine(next) {
  const word = () => WORDS[Math.floor(next() * WORDS.length)];
  const indent = '  '.repeat(1 + Math.floor(next() * 3));
  return `${indent}const ${word()}${Math.floor(next() * 1000)} = ${word()}.${word()}(${word()}, ${Math.floor(next() * 100)});`;
}

function commitHeader(ref, mark, time, message) {
  return `commit ${ref}\nmark :${mark}\ncommitter Bench <b@example.invalid> ${time} +0000\ndata ${message.length}\n${message}\n`;
}

function fileData(path, lines) {
  const content = `${lines.join('\n')}\n`;
  return `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`;
}

/**
 * A merge-heavy history, shaped like a project that merges pull requests: `files` source files of `lines` lines;
 * `features` branches of `perFeature` commits each, every one started from main a few merges back (so main has moved
 * by the time it merges, and files changed on both sides get a combined diff) and written up to 4 merges before its
 * own, each merged with a merge commit.
 * Every fifth merge also writes lines of its own (an evil merge): the last line of each file the feature changed, and
 * the first of one it did not. Default size: 2,400 commits, 600 of them merges.
 */
export function writeMergeHeavy(path, { files = 60, lines = 400, features = 600, perFeature = 3 } = {}) {
  const out = openSync(path, 'w');
  const next = seeded(32);
  let mark = 0;
  const time = 1_700_000_000;
  // main's content, and the marks and contents main had after each merge (a feature starts from one of those).
  const main = Array.from({ length: files }, () => Array.from({ length: lines }, () => codeLine(next)));
  const pathOf = (file) => `src/module${String(file).padStart(3, '0')}/file${file}.ts`;

  mark++;
  let stream = commitHeader('refs/heads/main', mark, time, 'initial');
  for (let file = 0; file < files; file++) stream += fileData(pathOf(file), main[file]);
  writeSync(out, stream);
  const history = [{ mark, content: main.map((file) => [...file]) }];

  for (let feature = 0; feature < features; feature++) {
    const start = history[Math.max(0, history.length - 1 - Math.floor(next() * 4))];
    const branch = start.content.map((file) => [...file]);
    const changed = new Map(); // file -> Set of line indices this feature changed
    let parent = start.mark;
    // Written over the last few merges' time, as work in flight is: in `git log` a branch's commits sit among other
    // branches' commits and merges, not next to their own merge.
    const begun = time + 1000 * (feature + 1) - 100 * (1 + Math.floor(next() * 40));
    for (let c = 0; c < perFeature; c++) {
      mark++;
      stream = commitHeader(`refs/heads/feature${feature}`, mark, begun + c, `feature ${feature} part ${c}`);
      stream += `from :${parent}\n`;
      for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
        const file = Math.floor(next() * files);
        const at = Math.floor(next() * lines);
        for (let line = at; line < Math.min(lines, at + 1 + Math.floor(next() * 8)); line++) {
          branch[file][line] = codeLine(next);
          if (!changed.has(file)) changed.set(file, new Set());
          changed.get(file).add(line);
        }
        stream += fileData(pathOf(file), branch[file]);
      }
      writeSync(out, stream);
      parent = mark;
    }
    // The merge: main's content with the feature's changed lines (the feature's version wins where both changed one).
    const mainMark = history[history.length - 1].mark;
    mark++;
    stream = commitHeader('refs/heads/main', mark, time + 1000 * (feature + 1), `Merge feature ${feature}`);
    stream += `from :${mainMark}\nmerge :${parent}\n`;
    const evil = feature % 5 === 4;
    for (const [file, indices] of changed) {
      for (const line of indices) main[file][line] = branch[file][line];
      if (evil) main[file][lines - 1] = `${codeLine(next)} // resolved in the merge`;
      stream += fileData(pathOf(file), main[file]);
    }
    if (evil) {
      const untouched = (feature * 7) % files;
      if (!changed.has(untouched)) {
        main[untouched][0] = `${codeLine(next)} // written by the merge`;
        stream += fileData(pathOf(untouched), main[untouched]);
      }
    }
    writeSync(out, stream);
    history.push({ mark, content: main.map((file) => [...file]) });
    if (history.length > 8) history.shift();
  }
  closeSync(out);
}

/**
 * A linear history of long lines (git's diffs dominate): `commits` commits cycling over 40 files, each appending a
 * 36 KB line and keeping the last 3. 5,000 commits give about 360 MB of patch.
 */
export function writeLongLines(path, commits) {
  const out = openSync(path, 'w');
  const files = new Map();
  for (let i = 0; i < commits; i++) {
    const file = `src/f${i % 40}.txt`;
    const lines = files.get(file) ?? [];
    lines.push(`${`line ${i} `.repeat(4000).slice(0, 36_000)}`);
    if (lines.length > 3) lines.shift();
    files.set(file, lines);
    const content = `${lines.join('\n')}\n`;
    writeSync(
      out,
      `commit refs/heads/main\ncommitter Bench <b@example.invalid> ${1_700_000_000 + i} +0000\ndata 3\nmsg\n` +
        `M 100644 inline ${file}\ndata ${Buffer.byteLength(content)}\n${content}\n`,
    );
  }
  closeSync(out);
}
