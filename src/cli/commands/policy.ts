import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const statusFlags = z.object({ json: z.boolean().default(false) });

export function registerPolicy(program: Command, io: () => CommandIo = processIo): void {
  const policy = program
    .command('policy')
    .summary("show or accept edits of tollgate's policy (config, committed waivers, suppression files)")
    .description(
      "The gate judges a change by the policy at the base commit: tollgate.config.yaml, tollgate.waivers.yaml and the secret scanner's baseline and ignore files. An edit of one applies once a person accepts it here, or once it is merged into the base (docs/policy.md). In CI (TOLLGATE_POLICY=base) nothing can be accepted.",
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate policy status
  $ tollgate policy accept`,
    );

  policy
    .command('status')
    .summary('list the policy files (unchanged, edited and pending, or accepted on this machine) and the base')
    .option(
      '--json',
      'print JSON: { base, mode, chosen: { source, ref, how, movedBy }, files: [{ path, status, base, working }], configEdit? }',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate policy status
  $ tollgate policy status --json`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(statusFlags, rawFlags);
      const { cwd, env, write } = io();
      const [{ loadPolicy, renderPolicyStatus }, { readerOf }] = await Promise.all([
        import('./policy-work.js'),
        import('../person-at-terminal.js'),
      ]);
      const loaded = await loadPolicy(cwd, env as NodeJS.ProcessEnv);
      write(renderPolicyStatus(loaded, flags.json, readerOf(env as NodeJS.ProcessEnv)));
    });

  policy
    .command('accept')
    .summary('a person accepts the pending policy edits, after seeing each one (at a terminal)')
    .description(
      'Shows every pending edit (base → working copy, secrets masked) and asks you to type "accept". The exact edits are recorded in .tollgate/policy-accepted.json: a later edit of the same file is pending again. Refused under a coding agent or without a terminal, and in CI.',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate policy accept`,
    )
    .action(async () => {
      const { cwd, env, write } = io();
      const { acceptPendingPolicy } = await import('./policy-work.js');
      write(await acceptPendingPolicy(cwd, env as NodeJS.ProcessEnv));
    });
}
