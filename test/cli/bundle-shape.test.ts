import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CLI_PATH } from '../support/run-cli.js';

/**
 * What the built bundles hold (scripts/bundle-lib.mjs): every start reads and evaluates the CLI's bundle, so code no
 * command can reach is start-up time paid for nothing. zod's index of languages is built with English
 * alone: zod's own messages stay in English, no other language ships. The scan worker's bundle holds no zod and no
 * config parser at all: it is sent its rules as data (src/secrets/scanner-rules.ts).
 */
const ROOT = join(dirname(CLI_PATH), '..');
const BUNDLES = ['dist/bundle/cli/tollgate.cjs', 'dist/bundle/cli/scan.cjs'];
const SCAN_BUNDLE = 'dist/bundle/cli/scan.cjs';
const WORKER = 'dist/bundle/cli/scan-worker.cjs';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the built bundles', () => {
  test.each(BUNDLES)('%s keeps zod English only', (bundle) => {
    const text = readFileSync(join(ROOT, bundle), 'utf8');
    expect(text).toContain('Invalid input'); // zod's English messages (locales/en.js)
    expect(text).not.toContain('Ongeldige invoer'); // Dutch (locales/nl.js), one of the languages left out
  });

  test('the scan worker loads no config parser (zod, jsonc-parser, smol-toml)', () => {
    const map = JSON.parse(readFileSync(join(ROOT, `${WORKER}.map`), 'utf8')) as { sources: string[] };
    const parsers = map.sources.filter((source) => /node_modules\/(zod|jsonc-parser|smol-toml)\//.test(source));
    expect(parsers).toEqual([]);
    expect(readFileSync(join(ROOT, WORKER), 'utf8')).not.toContain('Invalid input');
  });

  test("the scan's own bundle holds the scan, not the gate: no pipeline, validator runner, MCP, install or agent hook", () => {
    // Every scan reads, deserializes and evaluates it (bin/tollgate.cjs): what it holds for nothing, each scan pays.
    const map = JSON.parse(readFileSync(join(ROOT, `${SCAN_BUNDLE}.map`), 'utf8')) as { sources: string[] };
    const sources = map.sources.filter((source) => !source.startsWith('not-in-a-scan:'));
    expect(sources.some((source) => source.endsWith('src/validators/secrets/scan-command.ts'))).toBe(true);
    const gate = sources.filter((source) =>
      /src\/(integrations\/|core\/run\/run-gate|core\/pipeline\/execute-tool|validators\/[^/]+\/run-|report\/(markdown|json|html))|@modelcontextprotocol/.test(
        source,
      ),
    );
    expect(gate).toEqual([]);
    const size = (bundle: string) => readFileSync(join(ROOT, bundle)).length;
    expect(size(SCAN_BUNDLE)).toBeLessThan(size('dist/bundle/cli/tollgate.cjs') * 0.6);
  });

  test('no source reaches for the languages the bundle leaves out', () => {
    const offenders = sourceFiles(join(ROOT, 'src')).filter((file) =>
      /\bz\.locales\b|zod\/(?:v4\/)?locales/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
