import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { errorMessage, TollgateError } from '../../../core/errors.js';
import { packageFile } from '../../../core/package-files.js';
import type { Redact } from '../redaction.js';
import { type Classification, type FixItem, MAX_REPLY_LENGTH } from './payload-schemas.js';

/** `templates/review-reply.md` shipped with the package. */
const BUNDLED_TEMPLATE_PATH = packageFile('templates/review-reply.md');

const TEMPLATE_VARIABLES = [
  'response',
  'changes',
  'verification',
  'resolutionNote',
  'classification',
  'commitSha',
  'threadId',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;
const MAX_BULLET_CHARS = 500;

export interface ReplyTemplate {
  text: string;
  /** How messages name it: the repo-relative path or "bundled templates/review-reply.md". */
  label: string;
}

/** Config `reviewComments.replyTemplate` (repo-relative), else the bundled file. Unknown placeholders are an error. */
export async function loadReplyTemplate(options: { repoRoot: string; configured?: string | undefined }) {
  const path = options.configured
    ? isAbsolute(options.configured)
      ? options.configured
      : resolve(options.repoRoot, options.configured)
    : BUNDLED_TEMPLATE_PATH;
  const label = options.configured
    ? `reviewComments.replyTemplate ${relative(options.repoRoot, path) || path}`
    : 'bundled templates/review-reply.md';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new TollgateError('config', `${label}: could not read: ${errorMessage(error)}`);
  }
  const unknown = [...text.matchAll(PLACEHOLDER)]
    .map((match) => match[1]!)
    .filter((name) => !(TEMPLATE_VARIABLES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new TollgateError(
      'config',
      `${label}: unknown placeholder {{${unknown[0]}}}; expected one of ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`,
    );
  }
  return { text, label } satisfies ReplyTemplate;
}

/** Opening line per classification when the payload gives no `replyBody` of its own. */
function defaultResponse(item: FixItem): string {
  switch (item.classification) {
    case 'valid':
      return item.commitSha ? `Fixed in \`${item.commitSha.slice(0, 12)}\`.` : 'Fixed.';
    case 'already_fixed':
      return 'This is already addressed in the current code.';
    case 'stale':
      return 'This no longer applies to the current diff.';
    case 'invalid':
      return 'I checked this against the current code and do not think it applies.';
    case 'needs_human':
      return 'This needs a decision from a person before anything changes.';
  }
}

function changesHeading(classification: Classification): string {
  switch (classification) {
    case 'valid':
      return 'What changed:';
    case 'invalid':
      return 'Why:';
    case 'needs_human':
      return 'Decision needed:';
    case 'already_fixed':
    case 'stale':
      return 'Evidence:';
  }
}

function bullet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return `- ${oneLine.length > MAX_BULLET_CHARS ? `${oneLine.slice(0, MAX_BULLET_CHARS - 1)}…` : oneLine}`;
}

/** A payload cannot smuggle a placeholder into the template through a value. */
function escapeValue(value: string): string {
  return value.replaceAll('{{', '{ {').replaceAll('}}', '} }');
}

/** Words that would claim a resolution that has not happened when the reply is posted (it goes out first). */
const CLAIMS_RESOLVED =
  /\b(?:has been|is now|is|was|I(?:'ve| have)?|we(?:'ve| have)?)\s+(?:marked\s+(?:as\s+)?)?resolved\b/i;

/** The hidden marker on every reply: tells our replies from others' and which comment a reply answered. */
function replyMarker(key: string): string {
  return `<!-- tollgate:review-reply v1 key=${key} -->`;
}
export const REPLY_MARKER_PATTERN = /<!-- tollgate:review-reply v1 key=([0-9a-f]{16}) -->/;

export function replyKey(parts: { threadId: string; latestCommentId: string | null; item: FixItem }): string {
  return createHash('sha256')
    .update(
      JSON.stringify([parts.threadId, parts.latestCommentId, parts.item.classification, parts.item.commitSha ?? null]),
    )
    .digest('hex')
    .slice(0, 16);
}

export interface RenderReplyOptions {
  template: ReplyTemplate;
  item: FixItem;
  /** Whether a resolution is planned after the reply (the note then invites a reopen; it never says "resolved"). */
  resolutionPlanned: boolean;
  key: string;
  redact: Redact;
}

/** Renders, redacts and checks a reply. Throws a usage error naming the thread when the result is unusable. */
export function renderReply(options: RenderReplyOptions): string {
  const { item } = options;
  const evidence = item.fixSummary ?? (item.classification === 'needs_human' ? item.humanDecision : undefined);
  const values: Record<TemplateVariable, string> = {
    response: item.replyBody ?? defaultResponse(item),
    changes: evidence ? `${changesHeading(item.classification)}\n${bullet(evidence)}` : '',
    verification:
      item.verification.length > 0 ? `Verified:\n${item.verification.map((entry) => bullet(entry)).join('\n')}` : '',
    resolutionNote: options.resolutionPlanned
      ? 'If you disagree, reply here or reopen the thread.'
      : 'Leaving this thread open for you to resolve.',
    classification: item.classification,
    commitSha: item.commitSha ?? '',
    threadId: item.threadId,
  };
  const filled = options.template.text.replace(PLACEHOLDER, (_match, name: string) =>
    escapeValue(values[name as TemplateVariable] ?? ''),
  );
  const body = options
    .redact(filled)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const where = `reply to ${item.threadId} (${options.template.label})`;
  if (body === '') throw new TollgateError('usage', `${where}: the rendered reply is empty`);
  if (body.length > MAX_REPLY_LENGTH) {
    throw new TollgateError(
      'usage',
      `${where}: ${body.length} characters, over the ${MAX_REPLY_LENGTH} allowed; shorten replyBody or fixSummary`,
    );
  }
  if (CLAIMS_RESOLVED.test(body)) {
    throw new TollgateError(
      'usage',
      `${where}: says the thread is resolved, but the reply is posted before the resolution; reword it`,
    );
  }
  return `${body}\n\n${replyMarker(options.key)}`;
}
