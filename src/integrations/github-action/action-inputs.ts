import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';

/**
 * What the step reads, as environment variables: `TOLLGATE_*` (set from the runner's `INPUT_*` by the Action's
 * `main`, or by hand for `tollgate action-step`). Booleans are the strings the workflow wrote.
 */
const flag = (name: string) =>
  z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const lower = value.trim().toLowerCase();
      if (lower === 'true' || lower === 'false') return lower === 'true';
      ctx.addIssue({ code: 'custom', message: `${name}: expected true or false, got ${JSON.stringify(value)}` });
      return z.NEVER;
    });

const list = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(/[\s,]+/)
      .map((item) => item.trim())
      .filter(Boolean),
  );

export const ACTION_COMMANDS = ['run', 'scan', 'validate-alert'] as const;

const actionEnvironment = z.object({
  TOLLGATE_COMMAND: z
    .enum(ACTION_COMMANDS, { message: `command: expected one of ${ACTION_COMMANDS.join(', ')}` })
    .default('run'),
  TOLLGATE_BASE: z.string().default(''),
  TOLLGATE_CONFIG_INPUT: z.string().default(''),
  TOLLGATE_FAIL_ON: z
    .enum(['verdict', 'never'], {
      message: 'fail-on: expected "verdict" (fail when the gate fails) or "never" (report only)',
    })
    .default('verdict'),
  TOLLGATE_ONLY: list,
  TOLLGATE_SKIP: list,
  TOLLGATE_SARIF: flag('sarif'),
  TOLLGATE_COMMENT: flag('comment'),
  TOLLGATE_ANNOTATIONS: flag('annotations'),
  TOLLGATE_TOKEN: z.string().default(''),
  TOLLGATE_ALERT: z
    .string()
    .default('')
    .transform((value, ctx) => {
      if (value.trim() === '') return undefined;
      if (/^[1-9]\d{0,9}$/.test(value.trim())) return Number(value.trim());
      ctx.addIssue({ code: 'custom', message: `alert: expected an alert number, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }),
  TOLLGATE_AGENTS: list,
  TOLLGATE_ANALYSES: z
    .string()
    .default('')
    .refine((value) => value === '' || /^([1-9]|10)$/.test(value.trim()), {
      message: 'analyses: expected a number from 1 to 10',
    })
    .transform((value) => value.trim()),
  GITHUB_REPOSITORY: z.string().default(''),
  GITHUB_WORKSPACE: z.string().min(1, 'GITHUB_WORKSPACE: not set (is this running on a GitHub runner?)'),
  GITHUB_OUTPUT: z.string().min(1, 'GITHUB_OUTPUT: not set'),
  GITHUB_STEP_SUMMARY: z.string().min(1, 'GITHUB_STEP_SUMMARY: not set'),
  GITHUB_EVENT_PATH: z.string().default(''),
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  RUNNER_TEMP: z.string().default(''),
});
export type ActionEnvironment = z.output<typeof actionEnvironment>;

export function readActionEnvironment(env: NodeJS.ProcessEnv): ActionEnvironment {
  const parsed = actionEnvironment.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const message = issue.message.includes(':') ? issue.message : `${String(issue.path[0])}: ${issue.message}`;
    throw new TollgateError('usage', message);
  }
  return parsed.data;
}
