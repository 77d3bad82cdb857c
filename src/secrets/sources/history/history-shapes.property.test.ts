import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { builtinRules } from '../../rules/index.js';
import { fakeChecksumToken } from '../../sample-tokens.js';
import { scanBatches, scanTargets } from '../../scan-targets.js';
import { SecretScanner } from '../../scanner.js';
import { historyBatches } from '../git-sources.js';

/**
 * History scans read what git stores: for every shape of file the tree's scan catches a secret in (a NUL byte, UTF-16
 * either way round with or without a BOM, UTF-32, CRLF, no final newline, a huge line), the same file committed and
 * deleted in the next commit is caught by the history scan, at that commit.
 */
const scanner = new SecretScanner(builtinRules);
let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# shapes\n' } });
});
afterAll(() => repo.cleanup());

const SHAPES = [
  'utf-8',
  'nul byte',
  'utf-16le bom',
  'utf-16le',
  'utf-16be bom',
  'utf-16be',
  'utf-32le bom',
  'utf-32le',
  'utf-32be bom',
  'utf-32be',
  'crlf',
  'huge line',
] as const;
type Shape = (typeof SHAPES)[number];

function utf32(text: string, littleEndian: boolean): Buffer {
  const points = [...text].map((char) => char.codePointAt(0)!);
  const bytes = Buffer.alloc(points.length * 4);
  for (const [i, point] of points.entries()) {
    if (littleEndian) bytes.writeUInt32LE(point, i * 4);
    else bytes.writeUInt32BE(point, i * 4);
  }
  return bytes;
}

/** The file's bytes: `lines` around the secret's line, in `shape`, with or without a final line end. */
function fileBytes(shape: Shape, lines: readonly string[], finalNewline: boolean): Buffer {
  const eol = shape === 'crlf' || shape.startsWith('utf-16') || shape.startsWith('utf-32') ? '\r\n' : '\n';
  const all = shape === 'huge line' ? ['x'.repeat(300_000), ...lines] : lines;
  const text = all.join(eol) + (finalNewline ? eol : '');
  const bom = shape.endsWith(' bom');
  switch (shape) {
    case 'nul byte':
      return Buffer.concat([Buffer.from('\0'), Buffer.from(text)]);
    case 'utf-16le bom':
    case 'utf-16le':
      return Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
    case 'utf-16be bom':
    case 'utf-16be':
      return Buffer.concat([Buffer.from(bom ? [0xfe, 0xff] : []), Buffer.from(text, 'utf16le').swap16()]);
    case 'utf-32le bom':
    case 'utf-32le':
      return Buffer.concat([Buffer.from(bom ? [0xff, 0xfe, 0, 0] : []), utf32(text, true)]);
    case 'utf-32be bom':
    case 'utf-32be':
      return Buffer.concat([Buffer.from(bom ? [0, 0, 0xfe, 0xff] : []), utf32(text, false)]);
    default:
      return Buffer.from(text);
  }
}

const line = fc.stringMatching(/^[a-z][a-z0-9 _=.]{0,30}$/);

describe('the history scan catches what the tree scan catches', () => {
  let seed = 0;
  test.each(SHAPES)(
    '%s, committed and deleted in the next commit',
    async (shape) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(line, { maxLength: 4 }),
          fc.array(line, { maxLength: 4 }),
          fc.boolean(),
          async (before, after, finalNewline) => {
            const secret = fakeChecksumToken('ghp_', `history-shapes-${seed++}`);
            const bytes = fileBytes(shape, [...before, `TOKEN=${secret}`, ...after], finalNewline);
            const tree = await scanTargets([{ path: 'shaped.dat', read: async () => bytes }], { scanner });
            const inTree = tree.findings.filter((finding) => finding.ruleId === 'github-pat');
            // Every shape here is one the tree's scan reads; the property is about history, given that.
            expect(inTree, shape).toHaveLength(1);
            const start = (await repo.git('rev-parse', 'HEAD')).trim();
            await repo.write('shaped.dat', bytes);
            const added = await repo.commit(`add ${shape}`);
            await repo.git('rm', '-q', 'shaped.dat');
            await repo.commit('delete it');
            const history = await scanBatches(historyBatches({ repoRoot: repo.root, range: `${start}..HEAD` }), {
              scanner,
            });
            const found = history.findings.filter((finding) => finding.ruleId === 'github-pat');
            expect(
              found.map(({ path, commit, fingerprint }) => ({ path, commit, fingerprint })),
              `${shape} ${JSON.stringify({ before, after, finalNewline })}`,
            ).toEqual([{ path: 'shaped.dat', commit: added, fingerprint: inTree[0]!.fingerprint }]);
          },
        ),
        { numRuns: 2 },
      );
    },
    60_000,
  );
});
