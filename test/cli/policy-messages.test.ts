import { afterEach, describe, expect, test } from 'vitest';
import { AGENT_ENVIRONMENT_MARKERS } from '../../src/agents/agent-environment.js';
import { runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * A pending policy edit told to whoever reads it (docs/policy.md): a person at a terminal (a pseudo-terminal here,
 * through util-linux `script`) is given `tollgate policy accept`; an agent (a marker in the environment, or no
 * terminal) reads only that a person must accept it. The run says what the edit would have changed; `waive` refuses a
 * policy finding; `policy status` shows the base and what moves it.
 */
const BASE_CONFIG = 'validation:\n  advisories: { enabled: false }\n  static_analysis: { enabled: false }\n';
const EDITED_CONFIG = `${BASE_CONFIG}  secrets: { enabled: false }\nchecks:\n  - name: test\n    run: "true"\n  - name: lint\n    run: "true"\n`;

const CHECKS_SUMMARY = '2 checks from your edit did not run (test, lint): the edit is pending';
const PERSON_SECTION_LINE =
  'A policy edit applies once you review it: run `tollgate policy accept` in your terminal (it shows each edit and asks you to type "accept").';
const personEnds = (merge: string) =>
  `To apply your policy edit (tollgate.config.yaml), run \`tollgate policy accept\` (it shows the edit and asks you to confirm)${merge}; to drop it, restore the file as the base has it.`;
const AGENT_ENDS =
  'Only a person can accept a policy edit (tollgate.config.yaml): tell the user it is pending; a waiver does not end it. To go on without it, restore the file as the base has it.';

let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

function personEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_DEBUG: '' };
  for (const name of AGENT_ENVIRONMENT_MARKERS) delete env[name];
  return env;
}

const agentEnv = (): NodeJS.ProcessEnv => ({ ...personEnv(), CLAUDECODE: '1' });

/**
 * The built CLI on a pseudo-terminal; its output (stdout and stderr, as the terminal shows them) without CRs, escape
 * sequences and the echo of the empty line typed at it (nothing here gets as far as a prompt).
 */
async function atTerminal(args: string[], env: NodeJS.ProcessEnv = personEnv()) {
  const command = [process.execPath, CLI_PATH, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const result = await runProcess('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: repo.root,
    env,
    input: '\n',
    timeoutMs: 60_000,
  });
  const text = result.stdout
    .replace(/\r/g, '')
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/^\n/, '');
  return { exitCode: result.exitCode, text };
}

async function headOf(rev = 'HEAD'): Promise<string> {
  return (await repo.git('rev-parse', rev)).trim();
}

function policySummary(base: string, notApplied: string): string {
  return `1 policy edit pending a person's review (tollgate.config.yaml): this run used the policy at the base commit ${base.slice(0, 12)} instead. Not applied: ${notApplied}.`;
}

describe('a pending policy edit, told to its reader', () => {
  test('a person is given `tollgate policy accept` (and, with an upstream, merging); an agent only that a person must accept', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': BASE_CONFIG } });
    await repo.publish();
    const base = await headOf();
    await repo.write('tollgate.config.yaml', EDITED_CONFIG);

    const person = await atTerminal(['run']);
    expect(person.exitCode).toBe(1);
    expect(person.text).toContain(`\n${CHECKS_SUMMARY}\n`);
    expect(person.text).not.toContain('no checks configured');
    expect(person.text).toContain(
      policySummary(base, '2 checks from your edit did not run (test, lint); your edit turns off `secrets`'),
    );
    expect(person.text).toContain(`\n${PERSON_SECTION_LINE}\n`);
    expect(person.text).toContain(
      `**Next:** ${personEnds(', or merge it into `origin/main`')} Then run \`tollgate run\` again.`,
    );

    const status = await atTerminal(['policy', 'status']);
    expect(status.text).toBe(
      [
        `policy from the base commit ${base.slice(0, 12)}`,
        "  tollgate.config.yaml  edited: PENDING a person's review (the base's version applies)",
        '                        the edit adds checks test, lint; turns off `secrets`',
        "base: the merge-base of HEAD with `origin/main`, the branch's upstream",
        'moved by: a passing `tollgate run` (the commits it validated are trusted); a fetch alone never moves it: after one, `origin/main` is the base again once a run passes',
        `1 edit pending: runs fail until a person accepts or reverts it. ${personEnds(', or merge it into `origin/main`')}`,
        '',
      ].join('\n'),
    );

    // An agent: a marker (with or without a terminal), or no terminal at all.
    const agent = await runCli(['run'], { cwd: repo.root, env: agentEnv() });
    expect(agent.exitCode).toBe(1);
    // The checks that ran before answer from that run; the edit's checks did not run either way.
    expect(agent.stdout).toContain(`; nothing to do. ${CHECKS_SUMMARY}.\n`);
    expect(agent.stdout).toContain(`**Next:** ${AGENT_ENDS} Then run \`tollgate run\` again.`);
    const markedAtTerminal = await atTerminal(['run'], { ...personEnv(), TOLLGATE_ACTIVE: '1' });
    const agentStatus = await runCli(['policy', 'status'], { cwd: repo.root, env: personEnv() });
    expect(agentStatus.stdout).toContain('\n1 edit pending: runs fail until a person accepts or reverts it.\n');
    // What is stored and replayed later, and what the stop hook tells the agent, name no command either.
    const log = await runCli(['log'], { cwd: repo.root, env: agentEnv() });
    const stop = await runCli(['hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env: agentEnv(),
      input: JSON.stringify({ session_id: 'policy', cwd: repo.root, hook_event_name: 'Stop', stop_hook_active: false }),
    });
    expect(stop.stdout).toContain('"decision":"block"');
    // The policy result is no validator's finding: the reason says the edit is pending, not "fix them" with no list.
    const reason = (JSON.parse(stop.stdout) as { reason: string }).reason;
    expect(reason).toContain(`A policy edit is pending. ${AGENT_ENDS} Then`);
    expect(reason).not.toContain('Fix them');
    for (const text of [agent.stdout, markedAtTerminal.text, agentStatus.stdout, log.stdout, stop.stdout]) {
      expect(text).not.toContain('policy accept');
    }
  });

  test('`waive` refuses a policy finding; refusing a high finding, it names --human to a person only', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': BASE_CONFIG } });
    await repo.write('tollgate.config.yaml', EDITED_CONFIG);
    await repo.write('app.env', `GITHUB_TOKEN=${fakeChecksumToken('ghp_', 'policy-messages')}\n`);
    const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: agentEnv() });
    const tools = JSON.parse(run.stdout).tools as Array<{
      name: string;
      findings: Array<{ id: string; severity: string }>;
    }>;
    const policyId = tools.find((tool) => tool.name === 'policy')!.findings[0]!.id;
    const secret = tools.find((tool) => tool.name === 'secrets')!.findings[0]!;

    const policyRefusal = (ends: string) =>
      `tollgate: finding "${policyId}" is a pending policy edit (tollgate.config.yaml), not a risk to accept: a waiver cannot end it; ${ends}\n`;
    const toPerson = policyRefusal(
      'run `tollgate policy accept` to review and apply the edit, merge it into the base, or restore the file as the base has it',
    );
    const toAgent = policyRefusal(
      'it applies once a person accepts it or it is merged into the base; to go on without it, restore the file as the base has it',
    );
    const waive = (id: string, human: boolean) => ['waive', id, '--reason', 'fixture', ...(human ? ['--human'] : [])];
    for (const human of [false, true]) {
      const person = await atTerminal(waive(policyId, human));
      expect({ human, exitCode: person.exitCode, text: person.text }).toEqual({ human, exitCode: 2, text: toPerson });
    }
    const agent = await runCli(waive(policyId, false), { cwd: repo.root, env: agentEnv() });
    expect({ exitCode: agent.exitCode, stderr: agent.stderr }).toEqual({ exitCode: 2, stderr: toAgent });
    const agentHuman = await runCli(waive(policyId, true), { cwd: repo.root, env: agentEnv() });
    expect(agentHuman.stderr).toBe(
      'tollgate: --human: refused: this runs under a coding agent (CLAUDECODE is set); a person decides this in their own terminal\n',
    );

    const severe = `tollgate: finding "${secret.id}" is ${secret.severity} (secrets: GitHub personal access token (ghp_…) at app.env:1); waivers.allow lets an agent waive low, medium`;
    const personSevere = await atTerminal(waive(secret.id, false));
    expect(personSevere.text).toBe(
      `${severe}: to accept this risk yourself, run the same command with --human (you confirm by typing the finding id)\n`,
    );
    const agentSevere = await runCli(waive(secret.id, false), { cwd: repo.root, env: agentEnv() });
    expect(agentSevere.stderr).toBe(`${severe}, so fix it: only a person at their own terminal can accept this risk\n`);

    // A person without an upstream: no merge to suggest; the other findings come first.
    const person = await atTerminal(['run']);
    expect(person.text).toContain(
      `**Next:** Fix the other findings above, then run \`tollgate run\` again (to accept a low-risk one instead, \`tollgate waive ID --reason "…"\`). ${personEnds('')}`,
    );
  });

  test('a solo repository: the pinned base says why commits are part of the change, and policy status what moves it', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': BASE_CONFIG } });
    expect((await runCli(['run'], { cwd: repo.root, env: agentEnv() })).exitCode).toBe(0);
    const trusted = await headOf();
    await repo.write('notes.md', 'more\n');
    const head = await repo.commit('notes');
    const why = `the newest commit tollgate trusts; the 1 commit after it up to \`main\` (${head.slice(0, 10)}) no passing run validated, so it is part of the change`;
    const moves = 'a passing `tollgate run` (the commits it validated are trusted); `main` follows no remote branch';

    const status = await runCli(['policy', 'status'], { cwd: repo.root, env: agentEnv() });
    expect(status.stdout).toBe(
      [
        `policy from the base commit ${trusted.slice(0, 12)}`,
        '  tollgate.config.yaml  as in the base',
        `base: ${why}`,
        `moved by: ${moves}`,
        '',
      ].join('\n'),
    );
    const run = await runCli(['run'], { cwd: repo.root, env: agentEnv() });
    expect(run.stdout).toContain(`\nBase \`${trusted.slice(0, 10)}\`: ${why}. Moved by ${moves}.\n`);
  });
});
