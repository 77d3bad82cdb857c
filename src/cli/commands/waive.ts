import type { Command } from 'commander';
import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from './config.js';

const waiveFlags = z.object({
  reason: z.string().optional(),
  human: z.boolean().default(false),
  list: z.boolean().default(false),
  remove: z.string().min(1).optional(),
  json: z.boolean().default(false),
});
type WaiveFlags = z.output<typeof waiveFlags>;

export function registerWaive(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('waive')
    .summary('accept a finding of the last run as a known risk, with a reason')
    .description(
      'Records a waiver in .tollgate/waivers.json: the finding still appears in reports, marked as waived, and no longer blocks. An agent may waive only the severities in config `waivers.allow` (default low, medium); any other needs a person and --human. Every waiver and removal is logged in .tollgate/waivers.events.jsonl.',
    )
    .argument(
      '[id]',
      'finding id from the last run (shown by `tollgate log`); a unique prefix of at least 4 characters will do',
    )
    .option('--reason <text>', 'why the finding is acceptable (required when waiving)')
    .option('--human', 'a person is recording this waiver: any severity may be waived, and it is not marked "(agent)"')
    .option('--list', 'list the recorded waivers')
    .option('--remove <id>', 'remove the waiver of this finding id')
    .option('--json', 'with --list: print JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate waive 1a2b3c4d5e6f7a8b --reason "test fixture, not a real key"
  $ tollgate waive 1a2b3c4d --reason "accepted by the security team" --human
  $ tollgate waive --list
  $ tollgate waive --remove 1a2b3c4d5e6f7a8b`,
    )
    .action(async (id: string | undefined, rawFlags: unknown) => {
      const flags = parseFlags(waiveFlags, rawFlags);
      const action = chooseAction(id, flags);
      const { cwd, env, write } = io();
      const { findRepoRoot } = await import('../../core/config/repo-root.js');
      const repoRoot = await findRepoRoot(cwd, env);
      const { listWaivers, removeWaiver, waiveFinding } = await import('../../core/state/waivers.js');
      switch (action.kind) {
        case 'list': {
          const waivers = await listWaivers(repoRoot);
          if (flags.json) write(`${JSON.stringify(waivers, null, 2)}\n`);
          else if (waivers.length === 0) write('no waivers\n');
          else {
            for (const waiver of waivers) write(renderWaiver(waiver));
          }
          return;
        }
        case 'remove': {
          const removed = await removeWaiver(repoRoot, action.findingId, { human: flags.human, env });
          write(`removed the waiver of ${removed.findingId}; the finding blocks again\n`);
          return;
        }
        case 'waive': {
          const { loadConfig } = await import('../../core/config/load.js');
          const { config } = await loadConfig({ repoRoot, cwd, env });
          const waiver = await waiveFinding(repoRoot, {
            findingId: action.findingId,
            reason: action.reason,
            human: flags.human,
            allow: config.waivers.allow,
            env,
          });
          write(`waived ${waiver.findingId} (${describeWaived(waiver)}) by ${waiver.by}: ${waiver.reason}\n`);
          return;
        }
      }
    });
}

type WaiveAction =
  | { kind: 'list' }
  | { kind: 'remove'; findingId: string }
  | { kind: 'waive'; findingId: string; reason: string };

/** Exactly one of: an id to waive, `--list`, `--remove ID`. */
export function chooseAction(id: string | undefined, flags: WaiveFlags): WaiveAction {
  const chosen = [id !== undefined, flags.list, flags.remove !== undefined].filter(Boolean).length;
  if (chosen !== 1) {
    throw new TollgateError(
      'usage',
      chosen === 0
        ? 'tollgate waive: expected a finding id, --list or --remove ID (see tollgate waive --help)'
        : 'tollgate waive: give only one of a finding id, --list and --remove ID',
    );
  }
  if (flags.list) return { kind: 'list' };
  if (flags.remove !== undefined) return { kind: 'remove', findingId: flags.remove };
  const reason = flags.reason?.trim() ?? '';
  if (reason === '') {
    throw new TollgateError(
      'usage',
      `--reason: required and non-empty: say why finding "${id}" is acceptable, e.g. --reason "test fixture, not a real key"`,
    );
  }
  return { kind: 'waive', findingId: id!, reason };
}

interface ShownWaiver {
  findingId: string;
  reason: string;
  by: string;
  at: string;
  severity?: string;
  tool?: string;
  title?: string;
}

/** "medium checks: lint warning", from whatever the waiver recorded. */
function describeWaived(waiver: ShownWaiver): string {
  const head = [waiver.severity, waiver.tool].filter(Boolean).join(' ');
  return [head, waiver.title].filter(Boolean).join(': ') || 'finding';
}

export function renderWaiver(waiver: ShownWaiver): string {
  return `${waiver.findingId}  ${describeWaived(waiver)}\n    by ${waiver.by} at ${waiver.at}: ${waiver.reason}\n`;
}
