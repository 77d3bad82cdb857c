import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AGENT_NAMES, type AgentName } from '../../agents/index.js';
import { THINKING_BUDGETS, type ThinkingBudget } from '../../agents/types.js';
import { TollgateError } from '../../core/errors.js';
import { parseFrontMatter, splitFrontMatter } from '../../core/front-matter.js';
import { packageFile } from '../../core/package-files.js';
import { TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';

/**
 * What each validate-alert role is told and how its agent runs: `agents/<role>.md` in the package (the defaults), or
 * the repository's `.tollgate/agents/<role>.md` in its place. The front matter sets the model, effort, turn cap and
 * tool list; the body is the role's instructions, which the prompt places after the line that says who the agent is
 * and before the parts tollgate needs (the alert, the workspace rules, the report template or answer format).
 */
export const AGENT_ROLES = ['analysis', 'challenger', 'judge'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export interface AgentDefinition {
  role: AgentRole;
  instructions: string;
  /** One model for every CLI, or one per CLI (a Claude model name means nothing to Codex). */
  model?: string | Partial<Record<AgentName, string>>;
  effort?: ThinkingBudget;
  maxTurns?: number;
  /** Tool names, for CLIs that take a list (Claude Code `--tools`); the others keep their own sandbox. */
  tools?: string[];
  /** The file it came from. */
  source: string;
}

const frontMatterSchema = z
  .object({
    description: z.string().optional(),
    model: z.union([z.string().min(1), z.partialRecord(z.enum(AGENT_NAMES), z.string().min(1))]).optional(),
    effort: z.enum(THINKING_BUDGETS).optional(),
    maxTurns: z.number().int().min(1).max(500).optional(),
    tools: z
      .array(z.string().regex(/^[A-Za-z][\w:.()*-]*$/, 'a tool name such as Read or Bash'))
      .min(1)
      .optional(),
  })
  .strict();

/** Pure: a definition file's front matter and body; a problem is a usage error naming the file and the field. */
export function parseAgentDefinition(text: string, role: AgentRole, source: string): AgentDefinition {
  const { yaml, body } = splitFrontMatter(text);
  let front: unknown;
  try {
    front = parseFrontMatter(yaml);
  } catch (error) {
    throw new TollgateError(
      'config',
      `${source}: front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const parsed = frontMatterSchema.safeParse(front);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(front matter)';
    throw new TollgateError(
      'config',
      `${source}: ${field}: ${issue.message} (allowed: description, model, effort ${THINKING_BUDGETS.join('|')}, maxTurns, tools)`,
    );
  }
  const instructions = body.trim();
  if (instructions === '') throw new TollgateError('config', `${source}: the body (the role's instructions) is empty`);
  const { description: _description, ...settings } = parsed.data;
  return { role, instructions, source, ...settings };
}

/** The repository's definition of the role when it has one, else the shipped default. */
export async function loadAgentDefinition(role: AgentRole, projectRoot: string | null): Promise<AgentDefinition> {
  if (projectRoot) {
    const own = join(projectRoot, TOLLGATE_DIR, 'agents', `${role}.md`);
    const text = await readFile(own, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw new TollgateError('config', `${own}: cannot be read (${error.code ?? error.message})`);
    });
    if (text !== null) return parseAgentDefinition(text, role, own);
  }
  const shipped = packageFile(join('agents', `${role}.md`));
  return parseAgentDefinition(await readFile(shipped, 'utf8'), role, shipped);
}

export async function loadAgentDefinitions(projectRoot: string | null): Promise<Record<AgentRole, AgentDefinition>> {
  const [analysis, challenger, judge] = await Promise.all(
    AGENT_ROLES.map((role) => loadAgentDefinition(role, projectRoot)),
  );
  return { analysis: analysis!, challenger: challenger!, judge: judge! };
}

/** The model a definition names for one CLI, if any. */
export function modelFor(definition: AgentDefinition, agent: AgentName): string | undefined {
  return typeof definition.model === 'string' ? definition.model : definition.model?.[agent];
}
