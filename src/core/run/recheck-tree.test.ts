import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { parseConfigText } from '../config/load.js';
import { defineTool } from '../pipeline/tool.js';
import { result } from '../result.js';
import { readGateStatus } from './gate-status.js';
import { runGate } from './run-gate.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

/** A validator that deletes a changed file while it runs (as a check running `rm` would), then passes. */
function deletingTool(path: string) {
  return defineTool({
    name: 'deleter',
    title: 'Deleter',
    description: 'test',
    configKey: 'deleter',
    optionsSchema: z.object({}).prefault({}),
    inputSchema: z.object({}).strict(),
    permissions: [],
    enabledByDefault: true,
    run: async (ctx) => {
      await rm(join(ctx.repoRoot, path));
      return result('passed', 'looked fine');
    },
  });
}

describe('a tree that changes during the run', () => {
  test('stores no pass: the run is incomplete, names the file, and the gate stays closed when the file comes back', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('tokens.txt', 'something to scan\n');
    const tools = [deletingTool('tokens.txt')];
    const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(tools) });
    const options = {
      repoRoot: repo.root,
      config: loaded.config,
      configHash: loaded.hash,
      tools,
      command: 'test',
      version: 'test',
    };
    const report = await runGate(options);
    expect(report.verdict).toBe('failed');
    expect(report.tools[0]).toMatchObject({ status: 'incomplete' });
    expect(report.tools[0]!.summary).toContain('tokens.txt');
    await writeFile(join(repo.root, 'tokens.txt'), 'something to scan\n');
    const status = await readGateStatus(options);
    expect(status.state).not.toBe('validated');
  });
});
