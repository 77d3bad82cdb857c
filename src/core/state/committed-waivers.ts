import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import { z } from 'zod';
import { parseYamlSource } from '../config/yaml-source.js';
import { issueProblems } from '../config/zod-issues.js';
import { TollgateError } from '../errors.js';
import { SEVERITIES } from '../finding.js';
import { lazy } from '../lazy.js';
import { runProcess } from '../process.js';
import { writeFileAtomic } from './atomic-write.js';
import { COMMITTED_WAIVERS_FILE } from './committed-waivers-file.js';
import type { PolicyReader } from './policy-reader.js';
import type { WaiverRecord } from './waiver-record.js';

/**
 * `tollgate.waivers.yaml` at the repository root: waivers a team reviews and shares with the code. It is policy
 * (docs/policy.md): an entry counts as the base commit has it, or once a person accepted the edit, so nobody (no agent
 * either) can approve their own change by writing or committing the file.
 */

const entrySchema = () =>
  z
    .object({
      finding: z.string().regex(/^[0-9a-f]{16}$/, 'expected a finding id: 16 hex digits, as `tollgate log` shows'),
      reason: z.string().trim().min(1),
      by: z.string().trim().min(1),
      at: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO date and time'),
      expires: z
        .string()
        .refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO date and time')
        .optional(),
      severity: z.enum(SEVERITIES).optional(),
      tool: z.string().optional(),
      title: z.string().optional(),
    })
    .strict();

// Built on first use: a run reads the file only when the repository has one (start-up: other runs never pay for it).
const fileSchema = lazy(() => z.object({ waivers: z.array(entrySchema()).default([]) }).strict());

type Entry = z.output<ReturnType<typeof entrySchema>>;

/** The file's key for each waiver field (the file reads `finding` and `expires`; the rest keep their names). */
const FIELDS = [
  ['finding', 'findingId'],
  ['reason', 'reason'],
  ['by', 'by'],
  ['at', 'at'],
  ['expires', 'expiresAt'],
  ['severity', 'severity'],
  ['tool', 'tool'],
  ['title', 'title'],
] as const;

function toRecord(entry: Entry): WaiverRecord {
  const record: Record<string, unknown> = {};
  for (const [key, field] of FIELDS) if (entry[key] !== undefined) record[field] = entry[key];
  return record as WaiverRecord;
}

function toEntry(record: WaiverRecord): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const [key, field] of FIELDS) if (record[field] !== undefined) entry[key] = record[field];
  return entry;
}

/** The file's waivers; every problem is one line `tollgate.waivers.yaml:LINE:COL field: what is valid`. */
export function parseCommittedWaivers(text: string, label = COMMITTED_WAIVERS_FILE): WaiverRecord[] {
  const source = parseYamlSource(text);
  const problems = source.problems.length > 0 ? source.problems : [];
  if (problems.length === 0) {
    const parsed = fileSchema().safeParse(source.value ?? {});
    if (parsed.success) return parsed.data.waivers.map(toRecord);
    problems.push(...issueProblems(parsed.error.issues, fileSchema(), source));
  }
  const lines = problems.map((problem) => `${label}:${problem.line}:${problem.col} ${problem.message}`);
  throw new TollgateError('config', lines[0]!, lines.slice(1));
}

/**
 * The committed waivers: the file as the policy has it (docs/policy.md: as in the base commit, or an edit a person
 * accepted); without a policy, as it is in HEAD. None without a commit or without the file.
 */
export async function readCommittedWaivers(
  repoRoot: string,
  env?: NodeJS.ProcessEnv,
  policy?: PolicyReader,
): Promise<WaiverRecord[]> {
  if (policy && policy.mode !== 'unversioned') {
    const bytes = await policy.read(join(repoRoot, COMMITTED_WAIVERS_FILE));
    const from = policy.baseCommit ? `base ${policy.baseCommit.slice(0, 12)}` : 'no base';
    return bytes === null ? [] : parseCommittedWaivers(bytes.toString('utf8'), `${COMMITTED_WAIVERS_FILE} (${from})`);
  }
  const shown = await runProcess('git', ['show', `HEAD:${COMMITTED_WAIVERS_FILE}`], {
    cwd: repoRoot,
    ...(env ? { env } : {}),
    timeoutMs: 10_000,
  });
  if (shown.exitCode !== 0) return [];
  return parseCommittedWaivers(shown.stdout, `${COMMITTED_WAIVERS_FILE} (HEAD)`);
}

const HEADER = `# Waivers reviewed with the code (docs/waivers.md). An entry applies once it is committed; edit with
# \`tollgate waive ID --reason "…" --commit\`, or by hand.
`;

/**
 * Adds (or replaces) a waiver in the working tree's file, keeping its comments and order. The caller says that it
 * applies only once committed.
 */
export async function writeCommittedWaiver(repoRoot: string, record: WaiverRecord): Promise<string> {
  const path = join(repoRoot, COMMITTED_WAIVERS_FILE);
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (existing !== null) parseCommittedWaivers(existing);
  const document = parseDocument(existing ?? `${HEADER}waivers: []\n`);
  const entry = toEntry(record);
  const list = document.get('waivers', true);
  if (!isSeq(list)) document.set('waivers', document.createNode([entry]));
  else {
    const at = list.items.findIndex((item) => isMap(item) && item.get('finding') === record.findingId);
    if (at >= 0) list.items[at] = document.createNode(entry);
    else list.items.push(document.createNode(entry));
  }
  await writeFileAtomic(path, document.toString({ lineWidth: 0 }), { label: COMMITTED_WAIVERS_FILE });
  return path;
}
