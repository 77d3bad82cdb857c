import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { packageFile } from '../../core/package-files.js';
import { confidenceTableMarkdown } from './confidence.js';
import { parseReport, REPORT_SECTIONS } from './report.js';
import {
  copySkills,
  discoverSkills,
  parseSkill,
  SKILL_AGENTS,
  SkillFormatError,
  skillPathIn,
  skillsIndexSection,
} from './skills.js';

const fileOrigin = { kind: 'file' as const, path: '/x/f.md' };

test.each(SKILL_AGENTS)(
  'every shipped %s skill has valid YAML front matter, a name, a description and a body',
  async (agent) => {
    const { skills, warnings } = await discoverSkills(agent, null);
    expect(warnings).toEqual([]);
    expect(skills.length).toBeGreaterThan(0);
    for (const skill of skills) {
      expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(skill.description).not.toBe('');
      expect(skill.body).not.toBe('');
    }
  },
);

test('the confidence skill quotes the one confidence table the evals use', async () => {
  const { skills } = await discoverSkills('analysis', null);
  const scoring = skills.find((skill) => skill.name === 'confidence-scoring');
  expect(scoring?.body).toContain(confidenceTableMarkdown());
});

test('the report template has exactly the sections the evals require', async () => {
  const template = await readFile(packageFile('skills/analysis/_report-template.md'), 'utf8');
  const headings = parseReport(template).headings.filter((heading) => heading !== 'Secret Alert Validation Report');
  expect(headings).toEqual([...REPORT_SECTIONS]);
});

test('parseSkill reads YAML front matter (a description with ": " included), and a file without one is named after the file', () => {
  expect(
    parseSkill('---\nname: x-y\ndescription: "a: b"\nrequired: true\n---\nbody\n', 'f', 'project', fileOrigin),
  ).toEqual({
    name: 'x-y',
    description: 'a: b',
    required: true,
    body: 'body',
    source: 'project',
    phase: null,
    origin: fileOrigin,
  });
  expect(parseSkill('just text', 'own-skill', 'project', fileOrigin)).toMatchObject({
    name: 'own-skill',
    required: false,
  });
});

test('parseSkill names what is wrong with front matter it cannot use', () => {
  expect(() => parseSkill('---\ndescription: Use it: always\n---\nb', 'f', 'project', fileOrigin)).toThrow(
    SkillFormatError,
  );
  expect(() => parseSkill('---\ndescription: d\nrequired: "yes"\n---\nb', 'f', 'project', fileOrigin)).toThrow(
    /front matter field required: /,
  );
  expect(() => parseSkill('---\nname: Bad Name\ndescription: d\n---\nb', 'f', 'project', fileOrigin)).toThrow(
    /front matter field name: lower-case words joined by "-"/,
  );
});

test('a project skill may be a folder with SKILL.md and resources; a broken one is a warning, never silent', async () => {
  const root = await tempDir();
  try {
    const dir = join(root, '.tollgate', 'skills', 'analysis');
    await mkdir(join(dir, 'cloud-keys', 'scripts'), { recursive: true });
    await writeFile(
      join(dir, 'cloud-keys', 'SKILL.md'),
      '---\ndescription: Check cloud keys with the read-only identity call.\nrequired: true\n---\nRun scripts/whoami.sh.\n',
    );
    await writeFile(join(dir, 'cloud-keys', 'scripts', 'whoami.sh'), '#!/bin/sh\necho ok\n');
    await mkdir(join(dir, 'empty-folder'));
    await writeFile(join(dir, 'broken.md'), '---\ndescription: Looks: wrong\n---\nbody\n');
    const { skills, warnings } = await discoverSkills('analysis', root);
    const folder = skills.find((skill) => skill.name === 'cloud-keys');
    expect(folder).toMatchObject({ required: true, source: 'project', origin: { kind: 'folder' } });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/skill .*broken\.md: front matter is not valid YAML .*; it is left out$/);
    expect(warnings[1]).toMatch(
      /skill .*empty-folder\/SKILL\.md: no SKILL\.md in the folder and no skills in its sub-folders; it is left out$/,
    );

    // The agent gets the list with descriptions, and the skill's folder (resources included) in its workspace.
    const workspace = join(root, 'ws');
    await copySkills([folder!], workspace, 'skills');
    expect(await readFile(join(workspace, 'skills', 'cloud-keys', 'scripts', 'whoami.sh'), 'utf8')).toContain('echo');
    expect(skillPathIn('skills', folder!)).toBe('skills/cloud-keys/SKILL.md');
    expect(skillsIndexSection([folder!], 'skills')).toContain(
      '- `skills/cloud-keys/SKILL.md` (required): Check cloud keys with the read-only identity call.',
    );
  } finally {
    await removeDir(root);
  }
});

test('skills in workflow-phase sub-folders are found at any depth, the phase from the folder or the front matter', async () => {
  const root = await tempDir();
  try {
    const dir = join(root, '.tollgate', 'skills', 'analysis');
    await mkdir(join(dir, 'setup', 'clone-repo'), { recursive: true });
    await writeFile(
      join(dir, 'setup', 'clone-repo', 'SKILL.md'),
      '---\ndescription: Clone it.\nrequired: true\n---\nClone.\n',
    );
    await mkdir(join(dir, 'verification', 'live', 'call-api'), { recursive: true });
    await writeFile(
      join(dir, 'verification', 'live', 'call-api', 'SKILL.md'),
      '---\ndescription: Call it.\n---\nCall.\n',
    );
    await writeFile(
      join(dir, 'verification', 'scoring.md'),
      '---\ndescription: Score it.\nphase: judging\n---\nScore.\n',
    );
    const { skills, warnings } = await discoverSkills('analysis', root);
    expect(warnings).toEqual([]);
    const byName = new Map(skills.map((skill) => [skill.name, skill]));
    expect(byName.get('clone-repo')).toMatchObject({ phase: 'setup', required: true, origin: { kind: 'folder' } });
    expect(byName.get('call-api')).toMatchObject({ phase: 'verification/live' });
    expect(byName.get('scoring')).toMatchObject({ phase: 'judging' });
    expect(skillsIndexSection([byName.get('clone-repo')!], 'skills')).toContain(
      '- `skills/clone-repo/SKILL.md` (phase setup, required): Clone it.',
    );
    const workspace = join(root, 'ws');
    await copySkills([byName.get('call-api')!], workspace, 'skills');
    expect(await readFile(join(workspace, 'skills', 'call-api', 'SKILL.md'), 'utf8')).toContain('Call.');
  } finally {
    await removeDir(root);
  }
});
