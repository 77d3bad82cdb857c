import type { Command } from 'commander';
import { z } from 'zod';
import { agentMarkers } from '../../agents/agent-environment.js';
import { lifetimeSchema } from '../../core/config/duration.js';
import { TollgateError } from '../../core/errors.js';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';
import { readerOf, refuseUnlessPerson, typedOnTerminal } from '../person-at-terminal.js';

const waiveFlags = z.object({
  reason: z.string().optional(),
  human: z.boolean().default(false),
  list: z.boolean().default(false),
  remove: z.string().min(1).optional(),
  json: z.boolean().default(false),
  expires: z.string().min(1).optional(),
  commit: z.boolean().default(false),
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
    .option(
      '--human',
      'a person is recording this waiver at a terminal (asked to type the finding id): any severity may be waived; refused under an agent or without a terminal',
    )
    .option(
      '--expires <duration>',
      'the waiver stops applying after this long, e.g. 7d or 12h (default: config waivers.expires)',
    )
    .option(
      '--commit',
      'write the waiver to tollgate.waivers.yaml, shared with the team: it applies once the edit is merged into the base (docs/policy.md)',
    )
    .option('--list', 'list the recorded waivers')
    .option('--remove <id>', 'remove the waiver of this finding id')
    .option('--json', 'with --list: print JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate waive 1a2b3c4d5e6f7a8b --reason "test fixture, not a real key"
  $ tollgate waive 1a2b3c4d --reason "flaky on CI, tracked in #412" --expires 7d
  $ tollgate waive 1a2b3c4d --reason "generated fixture" --commit
  $ tollgate waive --list
  $ tollgate waive --remove 1a2b3c4d5e6f7a8b`,
    )
    .action(async (id: string | undefined, rawFlags: unknown) => {
      const flags = parseFlags(waiveFlags, rawFlags);
      const action = chooseAction(id, flags);
      const { cwd, env, write } = io();
      const { findRepoRoot } = await import('../../core/config/repo-root.js');
      const repoRoot = await findRepoRoot(cwd, env);
      const { isExpired, listWaivers, removeWaiver } = await import('../../core/state/waivers.js');
      switch (action.kind) {
        case 'list': {
          const { currentHead, describeOrigin, lapsedAt } = await import('../../core/state/waiver-scope.js');
          const [waivers, head] = await Promise.all([listWaivers(repoRoot), currentHead(repoRoot, env)]);
          const shown = waivers.map((waiver) => {
            const lapsed = lapsedAt(waiver, head);
            return { ...waiver, how: describeOrigin(waiver), ...(lapsed ? { lapsed } : {}) };
          });
          if (flags.json) write(`${JSON.stringify(shown, null, 2)}\n`);
          else if (shown.length === 0) write('no waivers\n');
          else for (const waiver of shown) write(renderWaiver(waiver, isExpired(waiver)));
          return;
        }
        case 'remove': {
          const removed = await removeWaiver(repoRoot, action.findingId, { human: flags.human, env });
          write(`removed the waiver of ${removed.findingId}; the finding blocks again\n`);
          return;
        }
        case 'waive':
          write(await recordWaiver({ repoRoot, cwd, env: env as NodeJS.ProcessEnv, flags, action }));
          return;
      }
    });
}

/** `tollgate waive ID --reason …`: who may, for how long, locally or in the committed file; the line to print. */
async function recordWaiver(input: {
  repoRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  flags: WaiveFlags;
  action: Extract<WaiveAction, { kind: 'waive' }>;
}): Promise<string> {
  const { repoRoot, cwd, env, flags, action } = input;
  const [{ loadConfig }, { waiveFinding }, { waiverOrigin }] = await Promise.all([
    import('../../core/config/load.js'),
    import('../../core/state/waivers.js'),
    import('../../core/state/waiver-scope.js'),
  ]);
  const { config } = await loadConfig({ repoRoot, cwd, env });
  // `--human` is a claim that a person is at the keyboard.
  if (flags.human) refuseUnlessPerson('--human', env);
  const expiresInMs = flags.expires === undefined ? config.waivers.expires : parseExpires(flags.expires);
  const waiver = await waiveFinding(repoRoot, {
    findingId: action.findingId,
    reason: action.reason,
    human: flags.human,
    allow: config.waivers.allow,
    env,
    ...(expiresInMs !== undefined ? { expiresInMs } : {}),
    confirm: confirmOnTerminal,
    commit: flags.commit,
    madeBy: waiverOrigin(agentMarkers(env), Boolean(process.stdin.isTTY)),
    reader: readerOf(env),
  });
  if (waiver.committed) {
    return `wrote the waiver of ${waiver.findingId} (${describeWaived(waiver)}) to tollgate.waivers.yaml: the file is policy, so it applies once the edit is merged into the base, where reviewers see it, or a person accepts it (docs/policy.md)\n`;
  }
  const until = waiver.expiresAt ? ` until ${waiver.expiresAt}` : '';
  const scope = waiver.head !== undefined ? ' (on this machine, until the change is committed)' : '';
  return `waived ${waiver.findingId} (${describeWaived(waiver)}) by ${waiver.by}${until}${scope}: ${waiver.reason}\n`;
}

type WaiveAction =
  | { kind: 'list' }
  | { kind: 'remove'; findingId: string }
  | { kind: 'waive'; findingId: string; reason: string };

/** Exactly one of: an id to waive, `--list`, `--remove ID`. */
function chooseAction(id: string | undefined, flags: WaiveFlags): WaiveAction {
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
  expiresAt?: string;
  committed?: boolean;
  how?: string;
  lapsed?: string;
}

/** Asks the person to type the finding's full id, on the terminal. */
function confirmOnTerminal(finding: { id: string; severity: string; title: string }): Promise<boolean> {
  return typedOnTerminal(
    `Waiving ${finding.severity} finding "${finding.title}". Type its id (${finding.id}) to confirm: `,
    finding.id,
  );
}

function parseExpires(text: string): number {
  const parsed = lifetimeSchema.safeParse(text);
  if (!parsed.success) throw new TollgateError('usage', `--expires: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** "medium checks: lint warning", from whatever the waiver recorded. */
function describeWaived(waiver: ShownWaiver): string {
  const head = [waiver.severity, waiver.tool].filter(Boolean).join(' ');
  return [head, waiver.title].filter(Boolean).join(': ') || 'finding';
}

function renderWaiver(waiver: ShownWaiver, expired = false): string {
  const expiry = waiver.expiresAt
    ? expired
      ? ` (EXPIRED ${waiver.expiresAt}: no longer applies)`
      : ` (until ${waiver.expiresAt})`
    : '';
  const where = waiver.committed ? ' [tollgate.waivers.yaml]' : '';
  const lapsed = waiver.lapsed ? ` (LAPSED: ${waiver.lapsed})` : '';
  const how = waiver.how ? `, ${waiver.how}` : '';
  return `${waiver.findingId}  ${describeWaived(waiver)}${expiry}${lapsed}${where}\n    by ${waiver.by} at ${waiver.at}${how}: ${waiver.reason}\n`;
}
