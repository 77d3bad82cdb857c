import { cp, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseFrontMatter, splitFrontMatter } from '../../core/front-matter.js';
import { packageFile } from '../../core/package-files.js';
import { TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';
import { compareText } from '../../core/text-order.js';

/**
 * Methodology as Markdown skills, grouped by phase (the agent role that uses them): shipped in `skills/<phase>/`,
 * extended or overridden (same name) by the project's `.tollgate/skills/<phase>/`. A skill is either a flat
 * `<name>.md` or a folder `<name>/SKILL.md` (Claude Code's and the seed's format) whose other files are resources the
 * skill may point to. Agents with tools get the list with descriptions and read what they need from a copy in their
 * workspace; the tool-less judge gets the bodies inline.
 */
export const SKILL_AGENTS = ['analysis', 'challenger', 'judge'] as const;
export type SkillAgent = (typeof SKILL_AGENTS)[number];

/** Where each role's skills are copied inside an analysis workspace (the challenger works in the same one). */
export const ANALYSIS_SKILLS_FOLDER = 'skills';
export const CHALLENGER_SKILLS_FOLDER = 'challenger-skills';

/** The name of a folder skill's main file. */
export const SKILL_FILE = 'SKILL.md';

export interface Skill {
  name: string;
  description: string;
  required: boolean;
  body: string;
  source: 'package' | 'project';
  /**
   * The workflow phase within the role (`setup`, `verification`…): front matter `phase`, else the sub-folder the
   * skill sits in (`skills/analysis/setup/clone-repo/SKILL.md`); null for a skill at the top of its role's folder.
   */
  phase: string | null;
  /** Where it was read: the `.md` file, or the folder that holds `SKILL.md`. */
  origin: { kind: 'file' | 'folder'; path: string };
}

export interface DiscoveredSkills {
  skills: Skill[];
  /** One line per skill that could not be read (and so is left out): path and why. */
  warnings: string[];
}

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const frontMatterSchema = z
  .object({
    name: z.string().regex(SKILL_NAME, 'lower-case words joined by "-"').optional(),
    description: z.string().min(1, 'must not be empty'),
    required: z.boolean().default(false),
    phase: z.string().regex(SKILL_NAME, 'lower-case words joined by "-"').optional(),
  })
  .passthrough();

export class SkillFormatError extends Error {}

/**
 * Pure: front matter (YAML: `name`, `description`, `required`) and body of one skill. A file without front matter is
 * a skill named after its file with no description; front matter that is not valid YAML, or fields of the wrong type,
 * throw a SkillFormatError that says which field and what is allowed.
 */
export function parseSkill(
  text: string,
  fallbackName: string,
  source: Skill['source'],
  origin: Skill['origin'],
  folderPhase: string | null = null,
): Skill {
  const { yaml, body } = splitFrontMatter(text);
  if (yaml === null) {
    return {
      name: fallbackName,
      description: '',
      required: false,
      body: body.trim(),
      source,
      phase: folderPhase,
      origin,
    };
  }
  let data: unknown;
  try {
    data = parseFrontMatter(yaml);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    throw new SkillFormatError(`front matter is not valid YAML (${first}); quote a value that contains ": "`);
  }
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SkillFormatError(`front matter field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return {
    name: parsed.data.name ?? fallbackName,
    description: parsed.data.description,
    required: parsed.data.required,
    body: body.trim(),
    source,
    phase: parsed.data.phase ?? folderPhase,
    origin,
  };
}

/** Phase folders nest this deep at most: deeper is a symlink loop or a mistake, not a methodology. */
const MAX_PHASE_DEPTH = 6;

/**
 * The skills under one role's folder, at any depth: a folder with SKILL.md is a skill (its sub-folders are its
 * resources); a folder without one groups skills by workflow phase, named after the folder path.
 */
async function readSkillDir(
  dir: string,
  source: Skill['source'],
  warnings: string[],
  phase: string | null = null,
  depth = 0,
): Promise<Skill[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const skills: Skill[] = [];
  for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const isFolder = entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path)));
    if (!isFolder && (!entry.name.endsWith('.md') || entry.name.toLowerCase() === 'readme.md')) continue;
    const file = isFolder ? join(path, SKILL_FILE) : path;
    if (isFolder && !(await isFile(file))) {
      const nested = phase ? `${phase}/${entry.name}` : entry.name;
      const inside = depth < MAX_PHASE_DEPTH ? await readSkillDir(path, source, warnings, nested, depth + 1) : [];
      if (inside.length === 0) {
        warnings.push(`skill ${file}: no ${SKILL_FILE} in the folder and no skills in its sub-folders; it is left out`);
      }
      skills.push(...inside);
      continue;
    }
    const fallbackName = isFolder ? entry.name : entry.name.replace(/\.md$/, '');
    try {
      const text = await readFile(file, 'utf8');
      skills.push(parseSkill(text, fallbackName, source, { kind: isFolder ? 'folder' : 'file', path }, phase));
    } catch (error) {
      const why =
        error instanceof SkillFormatError
          ? error.message
          : (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? `no ${SKILL_FILE} in the folder`
            : `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      warnings.push(`skill ${file}: ${why}; it is left out`);
    }
  }
  return skills;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** The skills of one phase: shipped ones, then the project's (same name replaces). */
export async function discoverSkills(agent: SkillAgent, projectRoot: string | null): Promise<DiscoveredSkills> {
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  for (const skill of await readSkillDir(packageFile(join('skills', agent)), 'package', warnings)) {
    byName.set(skill.name, skill);
  }
  if (projectRoot) {
    for (const skill of await readSkillDir(join(projectRoot, TOLLGATE_DIR, 'skills', agent), 'project', warnings)) {
      byName.set(skill.name, skill);
    }
  }
  return { skills: [...byName.values()], warnings };
}

/** Where a skill's main file sits inside a workspace that received `copySkills(…, folder)`. */
export function skillPathIn(folder: string, skill: Skill): string {
  return `${folder}/${skill.name}/${SKILL_FILE}`;
}

/**
 * Copies the skills into `<workspace>/<folder>/<name>/` (a folder skill with its resources, a flat one as SKILL.md),
 * so an agent reads them where its sandbox lets it.
 */
export async function copySkills(skills: readonly Skill[], workspace: string, folder: string): Promise<void> {
  for (const skill of skills) {
    const target = join(workspace, folder, skill.name);
    if (skill.origin.kind === 'folder') await cp(skill.origin.path, target, { recursive: true, dereference: true });
    else await cp(skill.origin.path, join(target, SKILL_FILE));
  }
}

/** ` (phase setup, required)`: what an agent needs to know beside a skill's name. */
function labels(skill: Skill): string {
  const parts = [...(skill.phase ? [`phase ${skill.phase}`] : []), ...(skill.required ? ['required'] : [])];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** Pure: the skills as one prompt section, bodies inline (for an agent without tools: the judge). */
export function skillsSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const parts = skills.map(
    (skill) => `### Skill: ${skill.name}${labels(skill)}\n${skill.description}\n\n${skill.body}`,
  );
  return `## Methodology skills\n\n${parts.join('\n\n')}`;
}

/** Pure: the skills as a list to read from the workspace (for agents with tools). */
export function skillsIndexSection(skills: readonly Skill[], folder: string): string {
  if (skills.length === 0) return '';
  const lines = skills.map((skill) => `- \`${skillPathIn(folder, skill)}\`${labels(skill)}: ${skill.description}`);
  return `## Methodology skills
Each skill is a folder under \`${folder}/\` in your workspace. Read every required skill's SKILL.md before you start, and the others when they apply (a skill may point to more files in its folder). Tick the skills you applied, by name, in the report's Methodology checklist.
${lines.join('\n')}`;
}
