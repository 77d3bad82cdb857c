import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { builtinRules } from '../rules/index.js';
import { fakeChecksumToken } from '../sample-tokens.js';
import { scanBatches } from '../scan-targets.js';
import { SecretScanner } from '../scanner.js';
import { historyBatches } from './git-sources.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/** `commits` commits on main, commit i appending one line to `f{i % 5}.env`; every 10th line is a token. */
function fastImport(commits: number): { stream: string; tokens: Map<number, string> } {
  const tokens = new Map<number, string>();
  const files = new Map<string, string[]>();
  let stream = '';
  for (let i = 0; i < commits; i++) {
    const file = `f${i % 5}.env`;
    const lines = files.get(file) ?? [];
    const token = fakeChecksumToken('ghp_', `history-${i}`);
    if (i % 10 === 0) tokens.set(i, token);
    lines.push(i % 10 === 0 ? `TOKEN_${i}=${token}` : `LINE_${i}=${'x'.repeat(2000)}`);
    files.set(file, lines);
    const content = `${lines.join('\n')}\n`;
    const message = `commit ${i}`;
    stream += `commit refs/heads/main\ncommitter T <t@example.invalid> ${1_700_000_000 + i} +0000\n`;
    stream += `data ${Buffer.byteLength(message)}\n${message}\n`;
    stream += `M 100644 inline ${file}\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  return { stream, tokens };
}

describe('scan --history streams git log', () => {
  test('hundreds of commits arrive in many batches and give the same findings as the whole patch would', async () => {
    repo = await createTempRepo();
    const { stream, tokens } = fastImport(300);
    const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo.root, env: repo.env, input: stream });
    expect(imported.status, imported.stderr?.toString()).toBe(0);
    let batches = 0;
    async function* counted() {
      for await (const batch of historyBatches({ repoRoot: repo!.root, env: repo!.env, range: 'main' })) {
        batches++;
        yield batch;
      }
    }
    const outcome = await scanBatches(counted(), { scanner: new SecretScanner(builtinRules) });
    expect(batches).toBeGreaterThan(10);
    expect(outcome.findings).toHaveLength(tokens.size);
    const commits = new Set(outcome.findings.map((finding) => finding.commit));
    expect(commits.size).toBe(tokens.size);
    // Commit i added line floor(i / 5) + 1 of its file.
    const places = outcome.findings.map((finding) => `${finding.path}:${finding.line}`).sort();
    const expected = [...tokens.keys()].map((i) => `f${i % 5}.env:${Math.floor(i / 5) + 1}`).sort();
    expect(places).toEqual(expected);
  });

  test('a bad range is a one-line error naming it, after nothing was yielded', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'x\n' } });
    const run = async () => {
      for await (const _ of historyBatches({ repoRoot: repo!.root, env: repo!.env, range: 'nope..HEAD' })) void _;
    };
    await expect(run()).rejects.toThrow(/^--history nope\.\.HEAD: /);
  });
});
