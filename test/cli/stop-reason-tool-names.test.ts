import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * Claude Code 2.1 and Codex 0.17x defer MCP tools behind a tool search: a block reason that says "call
 * `parallel_validation`" also says how the agent finds it, in the agent's own naming where that was measured
 * (docs/integrations.md), and to search for it elsewhere. Through the built CLI, as each agent's hook runs it.
 */
let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  await repo.write('README.md', '# demo, changed\n');
});
afterAll(() => repo.cleanup());

async function reasonFor(agent: string): Promise<string> {
  const payload = (await readFile(new URL(`../fixtures/hooks/${agent}/stop.json`, import.meta.url), 'utf8')).replaceAll(
    '__REPO__',
    repo.root,
  );
  const out = await runCli(['hook', 'stop', '--agent', agent], { cwd: repo.root, env: repo.env, input: payload });
  const reply = JSON.parse(out.stdout) as { reason?: string; followup_message?: string };
  return reply.reason ?? reply.followup_message ?? '';
}

test.each([
  ['claude', 'if it is deferred, load it with ToolSearch, query "select:mcp__tollgate__parallel_validation"'],
  ['codex', 'if it is deferred, find it with tool_search: namespace `mcp__tollgate`, tool `parallel_validation`'],
  ['gemini', 'if you do not see it, search your tools for tollgate parallel_validation'],
])(
  '%s: the block reason says how to find the deferred tool',
  async (agent, hint) => {
    const reason = await reasonFor(agent);
    expect(reason).toContain(
      `Call the \`parallel_validation\` tool (tollgate MCP server; ${hint}) or run \`tollgate run\``,
    );
  },
  60_000,
);
