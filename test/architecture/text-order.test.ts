import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * What tollgate prints, hashes or keys state by is ordered the same on every machine: `compareText`
 * (src/core/text-order.ts) or `sort()`, both UTF-16 code units. `localeCompare` without a locale follows the
 * process's `LANG`, which can differ between a person's terminal and an agent's hook (`å.yaml` sorts before `z.yaml`
 * under `C`, after it under `sv_SE`): the policy's digest, sorted so, keyed saved results that the other environment
 * missed. A locale named in the call (a listing written for people) is the one use left.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UNNAMED_LOCALE = /\.localeCompare\(\s*[^,()]+(?:\([^()]*\))?[^,()]*\)/g;

function sources(): string[] {
  return readdirSync(join(ROOT, 'src'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe('text order', () => {
  test('no source sorts by the locale of the machine it runs on', () => {
    const offenders = sources().flatMap((file) =>
      (readFileSync(join(ROOT, file), 'utf8').match(UNNAMED_LOCALE) ?? []).map((call) => `${file}: ${call}`),
    );
    expect(offenders).toEqual([]);
  });

  test('the check finds a call without a locale, and passes one that names it', () => {
    expect('a.path.localeCompare(b.path)'.match(UNNAMED_LOCALE)).toHaveLength(1);
    expect("(a ?? '').localeCompare(b ?? '')".match(UNNAMED_LOCALE)).toHaveLength(1);
    expect("a.localeCompare(b, 'en', { sensitivity: 'base' })".match(UNNAMED_LOCALE)).toBeNull();
  });
});
