import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { AGENT_ROLES, loadAgentDefinition, modelFor, parseAgentDefinition } from './agent-definitions.js';

test.each(AGENT_ROLES)('the shipped %s definition parses and has instructions', async (role) => {
  const definition = await loadAgentDefinition(role, null);
  expect(definition.instructions.length).toBeGreaterThan(40);
  expect(definition.source.endsWith(join('agents', `${role}.md`))).toBe(true);
});

test('a repository definition replaces the shipped one: model (per CLI or for all), effort, turns, tools, body', async () => {
  const root = await tempDir();
  try {
    await mkdir(join(root, '.tollgate', 'agents'), { recursive: true });
    await writeFile(
      join(root, '.tollgate', 'agents', 'analysis.md'),
      '---\nmodel: { claude: claude-opus-4-5 }\neffort: high\nmaxTurns: 40\ntools: [Read, Bash]\n---\nCheck AWS keys with sts get-caller-identity only.\n',
    );
    const definition = await loadAgentDefinition('analysis', root);
    expect(definition).toMatchObject({ effort: 'high', maxTurns: 40, tools: ['Read', 'Bash'] });
    expect(definition.instructions).toBe('Check AWS keys with sts get-caller-identity only.');
    expect(modelFor(definition, 'claude')).toBe('claude-opus-4-5');
    expect(modelFor(definition, 'codex')).toBeUndefined();
    expect((await loadAgentDefinition('judge', root)).source).not.toContain('.tollgate');
  } finally {
    await removeDir(root);
  }
});

test('a definition it cannot use names the file, the field and what is allowed', () => {
  expect(() => parseAgentDefinition('---\neffort: max\n---\nbody', 'judge', '/r/.tollgate/agents/judge.md')).toThrow(
    /^\/r\/\.tollgate\/agents\/judge\.md: effort: .*\(allowed: description, model, effort off\|low\|medium\|high, maxTurns, tools\)$/,
  );
  expect(() => parseAgentDefinition('---\nprompt: x\n---\nbody', 'judge', 'j.md')).toThrow(/^j\.md: /);
  expect(() => parseAgentDefinition('---\nmodel: a: b\n---\nbody', 'judge', 'j.md')).toThrow(
    /^j\.md: front matter is not valid YAML/,
  );
  expect(() => parseAgentDefinition('---\neffort: low\n---\n\n', 'judge', 'j.md')).toThrow(
    "j.md: the body (the role's instructions) is empty",
  );
});
