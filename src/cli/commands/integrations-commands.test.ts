import { dirname } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { programWith } from '../../../test/support/in-process-cli.js';
import { registerDoctor } from './doctor.js';
import { hookGroup, registerHookStop } from './hook.js';
import { registerInstall, registerUninstall } from './install.js';
import { registerMcp } from './mcp.js';
import { registerStats } from './stats.js';

let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterAll(async () => {
  await repo.cleanup();
});

function program(output: string[]): Command {
  const root = programWith(
    {
      register: [registerInstall, registerUninstall, registerDoctor, registerStats, registerMcp, registerHookStop],
      cwd: repo.root,
      // No agent CLI on PATH (codex trust is then a printed manual step).
      env: { ...repo.env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` },
    },
    (text) => void output.push(text),
  );
  return root.configureOutput({ writeOut: () => {}, writeErr: () => {} });
}

/** Every `$ tollgate …` line of a command's help. */
function examples(command: Command): string[] {
  const lines: string[] = [];
  const collect = (candidate: Command) => {
    let text = '';
    candidate.configureOutput({ writeOut: (chunk) => (text += chunk) }).outputHelp();
    lines.push(...[...text.matchAll(/^ {2}\$ (tollgate .*)$/gm)].map((match) => match[1]!));
    for (const sub of candidate.commands) collect(sub);
  };
  collect(command);
  return lines;
}

/** Splits an example line like a shell would for these simple cases (double-quoted words). */
function argv(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!).slice(1);
}

describe('integration commands', () => {
  test('hook is a group other files can add to', () => {
    const root = program([]);
    const group = hookGroup(root);
    expect(hookGroup(root)).toBe(group);
    expect(group.commands.map((command) => command.name())).toEqual(['stop']);
  });

  test('every Example line runs (except those that serve or read stdin: covered by the MCP and stop-hook tests)', async () => {
    const lines = examples(program([])).filter((line) => !/^tollgate (mcp|hook)\b/.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(9);
    for (const line of lines) {
      const output: string[] = [];
      await program(output).parseAsync(argv(line), { from: 'user' });
      expect(output.join(''), line).not.toBe('');
    }
  });
});
