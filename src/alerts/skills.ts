import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageFile } from '../core/package-files.js';
import { TOLLGATE_DIR } from '../core/state/tollgate-dir.js';

/**
 * Methodology as Markdown skills, per agent type: shipped in `skills/<type>/*.md`, extended or overridden (same
 * name) by the project's `.tollgate/skills/<type>/*.md`. Every CLI gets them the same way: inlined in the prompt, so no
 * vendor's skill tool is needed. A skill's front matter says whether it is required; the report's "Methodology"
 * checklist names the skills applied, which is what methodology compliance is computed from.
 */
export const SKILL_AGENTS = ['analysis', 'challenger', 'judge'] as const;
export type SkillAgent = (typeof SKILL_AGENTS)[number];

export interface Skill {
  name: string;
  description: string;
  required: boolean;
  body: string;
  source: 'package' | 'project';
}

/** Pure: front matter (`name`, `description`, `required`) and body of one skill file. */
export function parseSkill(text: string, fileName: string, source: Skill['source']): Skill {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  const fields: Record<string, string> = {};
  for (const line of (match?.[1] ?? '').split('\n')) {
    const field = /^([A-Za-z_-]+):\s*(.*)$/.exec(line.trim());
    if (field) fields[field[1]!.toLowerCase()] = field[2]!.replace(/^["']|["']$/g, '');
  }
  return {
    name: fields.name || fileName.replace(/\.md$/, ''),
    description: fields.description ?? '',
    required: fields.required === 'true',
    body: (match ? match[2]! : text).trim(),
    source,
  };
}

async function readSkillDir(dir: string, source: Skill['source']): Promise<Skill[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const skills: Skill[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.md') || name.startsWith('_') || name.toLowerCase() === 'readme.md') continue;
    skills.push(parseSkill(await readFile(join(dir, name), 'utf8'), name, source));
  }
  return skills;
}

export async function discoverSkills(agent: SkillAgent, projectRoot: string | null): Promise<Skill[]> {
  const byName = new Map<string, Skill>();
  for (const skill of await readSkillDir(packageFile(join('skills', agent)), 'package')) byName.set(skill.name, skill);
  if (projectRoot) {
    for (const skill of await readSkillDir(join(projectRoot, TOLLGATE_DIR, 'skills', agent), 'project')) {
      byName.set(skill.name, skill);
    }
  }
  return [...byName.values()];
}

/** Pure: the skills as one prompt section. */
export function skillsSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const parts = skills.map(
    (skill) => `### Skill: ${skill.name}${skill.required ? ' (required)' : ''}\n${skill.description}\n\n${skill.body}`,
  );
  return `## Methodology skills\n\n${parts.join('\n\n')}`;
}
