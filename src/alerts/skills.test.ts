import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { packageFile } from '../core/package-files.js';
import { confidenceTableMarkdown } from './confidence.js';
import { parseReport, REPORT_SECTIONS } from './report.js';
import { discoverSkills, parseSkill, SKILL_AGENTS } from './skills.js';

test.each(SKILL_AGENTS)('every shipped %s skill has a name, a description and a body', async (agent) => {
  const skills = await discoverSkills(agent, null);
  expect(skills.length).toBeGreaterThan(0);
  for (const skill of skills) {
    expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(skill.description).not.toBe('');
    expect(skill.body).not.toBe('');
  }
});

test('the confidence skill quotes the one confidence table the evals use', async () => {
  const skills = await discoverSkills('analysis', null);
  const scoring = skills.find((skill) => skill.name === 'confidence-scoring');
  expect(scoring?.body).toContain(confidenceTableMarkdown());
});

test('the report template has exactly the sections the evals require', async () => {
  const template = await readFile(packageFile('skills/analysis/_report-template.md'), 'utf8');
  const headings = parseReport(template).headings.filter((heading) => heading !== 'Secret Alert Validation Report');
  expect(headings).toEqual([...REPORT_SECTIONS]);
});

test('parseSkill reads the front matter, and a file without one is named after the file', () => {
  expect(parseSkill('---\nname: x-y\ndescription: "d"\nrequired: true\n---\nbody\n', 'f.md', 'project')).toEqual({
    name: 'x-y',
    description: 'd',
    required: true,
    body: 'body',
    source: 'project',
  });
  expect(parseSkill('just text', 'own-skill.md', 'project')).toMatchObject({ name: 'own-skill', required: false });
});
