import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { TollgateError } from '../errors.js';
import { readJsonFile, writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('tollgate-atomic-');
});
afterEach(async () => {
  await removeDir(dir);
});

const writers = [
  ['writeFileAtomic', (path: string, data: unknown) => writeFileAtomic(path, data as string)],
  ['writeFileAtomicSync', async (path: string, data: unknown) => writeFileAtomicSync(path, data as string)],
] as const;

describe.each(writers)('%s', (_name, write) => {
  test('writes the content with mode 0600 and leaves no temp file', async () => {
    const path = join(dir, 'state.json');
    await write(path, '{"a":1}\n');
    expect(await readFile(path, 'utf8')).toBe('{"a":1}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  test('replaces existing content', async () => {
    const path = join(dir, 'state.json');
    await write(path, 'old');
    await write(path, 'new');
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  test('a write that fails after the temp file exists keeps the old content and removes the temp file', async () => {
    const path = join(dir, 'state.json');
    await write(path, 'old');
    // Not a string or bytes: the write into the temp file throws.
    await expect(write(path, 42)).rejects.toBeInstanceOf(TollgateError);
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  test('a rename that fails keeps the target and removes the temp file, naming the file in the error', async () => {
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'x');
    const error = await write(path, 'data').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TollgateError);
    expect((error as TollgateError).code).toBe('io');
    expect((error as TollgateError).message).toMatch(new RegExp(`^${path}: could not write: `));
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readdir(path)).toEqual(['inside']);
  });
});

test('the mode option sets the final mode', async () => {
  const path = join(dir, '.gitignore');
  await writeFileAtomic(path, '*\n', { mode: 0o644 });
  expect((await stat(path)).mode & 0o777).toBe(0o644);
});

test('concurrent writers each leave a whole file, never a mix, and no temp files', async () => {
  const path = join(dir, 'state.json');
  const contents = Array.from({ length: 20 }, (_, index) => JSON.stringify({ writer: index, pad: 'x'.repeat(10_000) }));
  await Promise.all(contents.map((content) => writeFileAtomic(path, content)));
  expect(contents).toContain(await readFile(path, 'utf8'));
  expect(await readdir(dir)).toEqual(['state.json']);
});

describe('readJsonFile', () => {
  const schema = z.object({ version: z.literal(1) });

  test('a missing file reads as undefined', async () => {
    expect(await readJsonFile(join(dir, 'none.json'), schema)).toBeUndefined();
  });

  test('a valid file is parsed by the schema', async () => {
    await writeFile(join(dir, 'ok.json'), '{"version":1}');
    expect(await readJsonFile(join(dir, 'ok.json'), schema)).toEqual({ version: 1 });
  });

  test.each([
    ['not JSON', '{"version":', /^\.tollgate\/state\.json: not valid JSON \(.+\); delete it to start fresh$/],
    [
      'the wrong shape',
      '{"version":2}',
      /^\.tollgate\/state\.json: unexpected content at version: .+; delete it to start fresh$/,
    ],
  ])('a file that is %s is an io error naming the file and the fix', async (_case, text, message) => {
    await writeFile(join(dir, 'bad.json'), text);
    const error = await readJsonFile(join(dir, 'bad.json'), schema, { label: '.tollgate/state.json' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TollgateError);
    expect((error as TollgateError).code).toBe('io');
    expect((error as TollgateError).message).toMatch(message);
  });
});
