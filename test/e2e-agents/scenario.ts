import { addTestJs, FAILING_CHECK_CONFIG, MATH_JS } from '../support/failing-check.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';

/**
 * The loop every real-agent test drives: the scripted model introduces a bug, validates (the check fails with a
 * distinctive line after 300 passing ones), says done, is blocked by the stop hook, fixes, validates again (passes),
 * says done, and is allowed to stop.
 */
export const FAILING_LINE = 'not ok 301 - add is broken: expected 3, got -1';
/** Where the failed check's finding points: the config line that defines the check. */
export const FINDING_PLACE = 'tollgate.config.yaml:2';
/** The stable start of the stop hook's block reason while the change's validation has failed (a run id follows). */
export const STOP_BLOCKED = 'tollgate: validation failed on the current changes';
/** How the block reason names the failed check's finding: its title and place, so a model that reads only the reason learns where to look. */
export const BLOCK_NAMES_FINDING = `check "unit tests" failed (exit 1) at ${FINDING_PLACE}`;

const CONFIG = FAILING_CHECK_CONFIG;
const TEST_JS = addTestJs();

export const BUG_COMMAND = "sed -i 's/a + b/a - b/' math.js";
export const FIX_COMMAND = "sed -i 's/a - b/a + b/' math.js";

/**
 * A committed project with the check, published (pushed upstream and fetched back) as a clone from a forge would be,
 * so that the base is a fetched commit; the agent edits `math.js`.
 */
export async function scenarioRepo(): Promise<TempRepo> {
  const repo = await createTempRepo({
    files: {
      'tollgate.config.yaml': CONFIG,
      'test.js': TEST_JS,
      'math.js': MATH_JS,
      '.gitignore': '.tollgate/\n',
    },
  });
  await repo.publish();
  return repo;
}

/**
 * The environment an agent CLI runs in: the repository's private HOME and git config, the installed tollgate first
 * on PATH, temp files under `tmp`. Without `TOLLGATE_STATE_KEY_FILE` (the test run's own state key, see
 * test/support/global-temp-root.ts): agent CLIs start MCP servers with a filtered environment (Gemini CLI drops every
 * variable whose name contains KEY, TOKEN, SECRET…; Codex passes only HOME, PATH, TMPDIR and a few more), so the MCP
 * server would sign the state with another key than the stop hook checks it with. tollgate then uses the key under
 * the private HOME, in every process, as it does for a user.
 */
export function agentEnv(repo: TempRepo, bin: string, tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...repo.env, PATH: `${bin}:${repo.env.PATH ?? ''}`, TMPDIR: tmp };
  delete env.TOLLGATE_STATE_KEY_FILE;
  return env;
}

/** Every string inside a parsed request (the texts the model was shown), depth first. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The first string in `value` that contains `needle`, or '' when none does. */
export function textWith(value: unknown, needle: string): string {
  return stringsIn(value).find((text) => text.includes(needle)) ?? '';
}

export type Step = 'bug' | 'validate' | 'done' | 'fix' | 'revalidate' | 'finish';

/**
 * The next step from the conversation so far (the request body as text) and the ids of the tool calls already
 * answered (`hasResult(id)`), latest first.
 */
export function nextStep(conversation: string, hasResult: (id: string) => boolean): Step {
  if (hasResult('call_revalidate')) return 'finish';
  if (hasResult('call_fix')) return 'revalidate';
  if (conversation.includes(STOP_BLOCKED)) return 'fix';
  if (hasResult('call_validate')) return 'done';
  if (hasResult('call_bug')) return 'validate';
  return 'bug';
}

/** The last text from tollgate's stop hook the model was shown (for a failure's message: what it said instead). */
export function lastHookReason(conversations: unknown[]): string {
  const texts = conversations.flatMap(stringsIn).filter((text) => text.includes('tollgate: '));
  return texts.at(-1)?.slice(0, 600) ?? '(none)';
}
