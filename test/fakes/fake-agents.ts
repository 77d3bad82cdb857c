import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { agentAdapters } from '../../src/agents/index.js';
import type { AgentAdapter } from '../../src/agents/types.js';
import { removeDir, tempDir } from '../support/temp-home.js';

/** The program behind every fake CLI. */
const FAKE_AGENT = resolve(import.meta.dirname, 'fake-agent.mjs');
/** The executables of the adapter registry: each one can be faked, and a new adapter's is without an edit here. */
export const FAKE_BINS: readonly string[] = agentAdapters.map((adapter) => adapter.bin);

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The keys of a step that `finish` in fake-agent.mjs plays: a step with any other key needs the Node fake. */
const PLAIN_STEP_KEYS = new Set(['stdout', 'stderr', 'stdoutFile', 'stderrFile', 'exit']);

/** Shell that writes a plain step's output and exits with its code, as `finish` in fake-agent.mjs does. */
function playStep(step: FakeReviewStep): string | undefined {
  if (Object.keys(step).some((key) => !PLAIN_STEP_KEYS.has(key))) return undefined;
  const out = step.stdoutFile ? `cat ${quoted(step.stdoutFile)}` : `printf '%s' ${quoted(step.stdout ?? '')}`;
  const err = step.stderrFile ? `cat ${quoted(step.stderrFile)} >&2` : `printf '%s' ${quoted(step.stderr ?? '')} >&2`;
  return `${out}; ${err}; exit ${step.exit ?? 0}`;
}

/**
 * A fake CLI named `bin`: a shell script that hands its arguments to `fake-agent.mjs`, which plays the scenario. The
 * probes tollgate makes of every adapter it considers (`--help`, `--version`, the auth check) are answered by the
 * script itself when their answer is plain text, logged as fake-agent.mjs logs them: a Node start each would be most
 * of what a review test costs. Anything else, or a value the script cannot write as JSON as it is, goes to Node.
 */
async function writeFakeBin(dir: string, bin: string, agent: FakeAgentScript, log: string): Promise<void> {
  if (!FAKE_BINS.includes(bin)) {
    throw new Error(`no adapter in src/agents/index.ts runs \`${bin}\`; fake one of: ${FAKE_BINS.join(', ')}`);
  }
  // FAKE_AGENT_NO_NODE: for the test that these answers are the script's own (fake-agents.test.ts).
  const node = `{ [ -z "$FAKE_AGENT_NO_NODE" ] || exit 96; exec ${quoted(process.execPath)} ${quoted(FAKE_AGENT)} ${quoted(bin)} "$@"; }`;
  const help = agent.help ? undefined : playStep(agent.helpFile ? { stdoutFile: agent.helpFile } : {});
  const version = playStep({ stdout: `${agent.version ?? '0.0.0'}\n` });
  const auth = agent.authArgs ? playStep(agent.auth ?? { stdout: '' }) : undefined;
  const calls = [
    // fake-agent.mjs: help is `--help` as the last of at most two arguments.
    help && `if [ $# -le 2 ] && [ "$last" = --help ]; then call=help; answer() { ${help}; }; fi`,
    `if [ "$*" = --version ]; then call=version; answer() { ${version}; }; fi`,
    auth && `if [ "$*" = ${quoted(agent.authArgs!.join(' '))} ]; then call=auth; answer() { ${auth}; }; fi`,
  ].filter((line): line is string => typeof line === 'string');
  const script = `#!/bin/sh
# Fake ${bin} for tests: see fake-agent.mjs (and writeFakeBin in fake-agents.ts for the probes answered here).
IFS=' '
call=
last=
for arg in "$@"; do last=$arg; done
${calls.join('\n')}
[ -n "$call" ] || ${node}
# A JSON string of $1, or nothing (status 1) when it holds a character this script does not escape.
json() { case $1 in *[!A-Za-z0-9\\ ._/:@=+,-]*) return 1 ;; esac; printf '"%s"' "$1"; }
optional() { if [ -n "$2" ]; then json "$1"; else printf null; fi; }
argv=
for arg in "$@"; do argv="$argv\${argv:+,}$(json "$arg")" || ${node}; done
cwd=$(json "$(pwd -P)") || ${node}
active=$(optional "$TOLLGATE_ACTIVE" "\${TOLLGATE_ACTIVE+set}") || ${node}
claudecode=$(optional "$CLAUDECODE" "\${CLAUDECODE+set}") || ${node}
token=
[ -z "\${GITHUB_TOKEN+set}\${GH_TOKEN+set}" ] || token=',"githubTokenSet":true'
printf '{"bin":"%s","call":"%s","argv":[%s],"cwd":%s,"stdin":"","env":{"TOLLGATE_ACTIVE":%s,"CLAUDECODE":%s}%s}\\n' \\
  ${quoted(bin)} "$call" "$argv" "$cwd" "$active" "$claudecode" "$token" >> ${quoted(log)}
answer
`;
  await writeFile(join(dir, bin), script, { mode: 0o755 });
}
export const AGENT_FIXTURES = resolve(import.meta.dirname, '../fixtures/agents');

/**
 * Where an adapter's recorded outputs live, derived from the adapter registry: `<name>/<first verified version>/`, or
 * `<name>/docs/` for an adapter whose flags come from documentation only. A new adapter needs no line here: only its
 * folder, which `fixtureDirOf` names when it is missing.
 */
export function fixtureDirOf(adapter: Pick<AgentAdapter, 'name' | 'verified' | 'verifiedVersions'>): string {
  const version = adapter.verified ? adapter.verifiedVersions[0] : 'docs';
  if (version === undefined) {
    throw new Error(
      `${adapter.name}: a verified adapter must list the version its fixtures were recorded from (verifiedVersions)`,
    );
  }
  const dir = `${adapter.name}/${version}`;
  if (!existsSync(join(AGENT_FIXTURES, dir, 'help.txt'))) {
    throw new Error(
      `test/fixtures/agents/${dir}/ is missing: record ${adapter.name}'s outputs there (help.txt, pass, findings, …; see test/fixtures/agents/README.md)`,
    );
  }
  return dir;
}

export const FIXTURE_DIRS: Record<string, string> = Object.fromEntries(
  agentAdapters.map((adapter) => [adapter.name, fixtureDirOf(adapter)]),
);

export interface FakeReviewStep {
  expectArgv?: string[];
  expectCwd?: string;
  expectStdinIncludes?: string[];
  stdout?: string;
  stderr?: string;
  stdoutFile?: string;
  stderrFile?: string;
  exit?: number;
  /** Written to the path after `-o` (Codex's last-message file). */
  answer?: string;
  hang?: boolean;
  hugeOutputBytes?: number;
  /** Repo-relative file the "reviewer" writes: it must be caught. */
  writeFile?: string;
  /** Files an analysis agent writes into its cwd (its workspace), path → content; `{{cwd}}` becomes the cwd. */
  writeFiles?: Record<string, string>;
}

/** Calls whose prompt (stdin or argv) contains `when` play `steps` in order (the last repeats), with their own counter. */
export interface FakeRoute {
  when: string;
  steps: FakeReviewStep[];
}

export interface FakeAgentScript {
  /** Answer to `--help` and `<subcommand> --help`. */
  helpFile?: string;
  help?: FakeReviewStep;
  version?: string;
  authArgs?: string[];
  auth?: FakeReviewStep;
  review?: FakeReviewStep;
  /** One step per review call, in order; the last repeats. */
  reviews?: FakeReviewStep[];
  /** Checked before `reviews`/`review`: the first route whose text is in the prompt picks the steps. */
  routes?: FakeRoute[];
}

export interface FakeCall {
  bin: string;
  call: 'help' | 'version' | 'auth' | 'review' | 'hang';
  argv: string[];
  cwd: string;
  stdin: string;
  env: { TOLLGATE_ACTIVE: string | null; CLAUDECODE: string | null };
  /** Present (true) only when GITHUB_TOKEN or GH_TOKEN reached the agent's environment. */
  githubTokenSet?: true;
  files?: { dir: string; prompt: string; schema: string } | { error: string };
  pid?: number;
  childPid?: number;
}

export interface FakeAgents {
  /** Environment for the code under test: fakes first on PATH, the scenario file, CLAUDECODE set (it must be removed). */
  env: NodeJS.ProcessEnv;
  calls(): FakeCall[];
  cleanup(): Promise<void>;
}

/** A recorded scenario of one adapter, as a fake review step. */
export function recorded(adapter: string, scenario: string): FakeReviewStep {
  const dir = join(AGENT_FIXTURES, FIXTURE_DIRS[adapter]!);
  const step: FakeReviewStep = {
    stdoutFile: join(dir, `${scenario}.stdout`),
    stderrFile: join(dir, `${scenario}.stderr`),
    exit: Number(readFileSync(join(dir, `${scenario}.exit`), 'utf8').trim()),
  };
  try {
    step.answer = readFileSync(join(dir, `${scenario}.answer`), 'utf8');
  } catch {
    // Only Codex writes an answer file.
  }
  return step;
}

export function helpFileOf(adapter: string): string {
  return join(AGENT_FIXTURES, FIXTURE_DIRS[adapter]!, 'help.txt');
}

/**
 * A private PATH with only the fakes named in `agents` (keyed by binary name), `node` and the system directories: an
 * agent CLI installed on the developer's machine is never found, and a CLI left out is "not installed".
 */
export async function setupFakeAgents(
  agents: Record<string, FakeAgentScript>,
  base: NodeJS.ProcessEnv = process.env,
): Promise<FakeAgents> {
  const dir = await tempDir('tollgate-fake-agents-');
  const log = join(dir, 'calls.jsonl');
  const scenarioPath = join(dir, 'scenario.json');
  await writeFile(scenarioPath, JSON.stringify({ log, agents }));
  await writeFile(log, '');
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await symlink(process.execPath, join(bin, 'node'));
  for (const [name, agent] of Object.entries(agents)) await writeFakeBin(bin, name, agent, log);
  return {
    env: {
      ...base,
      PATH: [bin, '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
      TOLLGATE_FAKE_AGENTS: scenarioPath,
      CLAUDECODE: '1',
    },
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as FakeCall),
    cleanup: () => removeDir(dir),
  };
}
