import { afterEach, expect, test, vi } from 'vitest';
import { Utf8ByteView } from './byte-view.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';

// Growing a WebAssembly memory detaches its old buffer, and V8's first detach in an isolate throws away every compiled
// function that reads a typed array: the keyword loop's memory holds the built-in rules' tables from the start.

afterEach(() => {
  vi.restoreAllMocks();
});

test('the keyword loop scans with the built-in rules without growing its memory', () => {
  const grow = vi.spyOn(WebAssembly.Memory.prototype, 'grow');
  const scanner = new SecretScanner(builtinRules);
  // Past the bytes the pass reads in JavaScript before it makes the loop (4 MB), in files of three kinds of path.
  const line = 'const apiKey = process.env.API_KEY; // token, password and secret in a name: { "auth": "x" }\n';
  const bytes = Buffer.from(line.repeat(Math.ceil((5 << 20) / line.length)));
  for (const path of ['src/app.js', 'config/settings.json', 'docs/README.md']) {
    scanner.scanView(new Utf8ByteView(bytes, true), { path });
  }
  expect(grow).not.toHaveBeenCalled();
});
