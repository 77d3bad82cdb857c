import type { ChangedFile } from '../../core/change-set/types.js';
import { reviewAnswerJsonSchema } from './answer.js';
import type { OmittedFile } from './diff-budget.js';
import type { InstructionFile } from './instructions.js';

export interface ReviewPromptInput {
  title: string;
  description: string;
  instructions: readonly InstructionFile[];
  files: readonly Pick<ChangedFile, 'path' | 'status' | 'oldPath'>[];
  diff: string;
  omitted: readonly OmittedFile[];
}

/** How many omitted files the prompt names one by one. */
const MAX_NAMED_OMITTED = 200;

const ANSWER_EXAMPLE = JSON.stringify(
  {
    status: 'fail',
    findings: [
      {
        path: 'src/api/users.ts',
        line: 42,
        severity: 'high',
        title: 'User id is interpolated into SQL',
        body: 'The id comes from the request and reaches the query unescaped: SQL injection.',
        suggestion: 'Use a parameterized query.',
        exclusionReason: null,
      },
    ],
  },
  null,
  2,
);

/** Pure: the review request every reviewer gets. */
export function buildReviewPrompt(input: ReviewPromptInput): string {
  const parts: string[] = [];
  parts.push(
    [
      'You are a code reviewer. Review the change described below to the repository in your current working directory.',
      'You are read-only: do not create, edit, move or delete any file, and do not run commands that change anything.',
      'You may read any file of the repository for context.',
      '',
      'Report only real problems that this change introduces or makes reachable: bugs, security issues, data loss,',
      'broken error handling, race conditions, missing validation of untrusted input, and tests that no longer test',
      'what they claim. Do not report style, naming or formatting preferences, and do not praise.',
      'Severity: critical = exploitable or data-destroying; high = a bug users will hit; medium = a bug in an edge case',
      'or a risky pattern; low = minor. If you notice something that should not block this change (it was already',
      'there, or it is out of scope), include it with an "exclusionReason" saying why.',
    ].join('\n'),
  );

  parts.push(`## The change\n\nTitle: ${input.title}\n\n${input.description.trim() || '(no description given)'}`);

  for (const file of input.instructions) {
    const note = file.truncated ? '\n\n(truncated)' : '';
    const scope = file.appliesTo ? `\n\nThese apply to: ${listPaths(file.appliesTo)}.` : '';
    parts.push(`## Repository instructions from ${file.path}${scope}\n\n${file.text.trim()}${note}`);
  }

  const fileLines = input.files.map((file) =>
    file.oldPath ? `- ${file.path} (${file.status} from ${file.oldPath})` : `- ${file.path} (${file.status})`,
  );
  parts.push(`## Changed files (${input.files.length})\n\n${fileLines.join('\n')}`);

  if (input.omitted.length > 0) {
    const named = input.omitted.slice(0, MAX_NAMED_OMITTED).map((file) => `- ${file.path}: ${file.reason}`);
    const rest = input.omitted.length - named.length;
    if (rest > 0) named.push(`- … and ${rest} more`);
    parts.push(
      `## Changed files whose diff is not below\n\nRead these yourself if they matter to the review:\n\n${named.join('\n')}`,
    );
  }

  parts.push(`## Diff\n\n\`\`\`diff\n${input.diff.trimEnd() || '(no textual diff)'}\n\`\`\``);

  parts.push(
    [
      '## Your answer',
      '',
      'Answer with exactly one JSON object and nothing else, in this format:',
      '',
      ANSWER_EXAMPLE,
      '',
      '"status" is "pass" when you found nothing that should block the change, else "fail". "path" is relative to the',
      'repository root; "line" is the line in the new version of the file (or in the old version for a deleted line),',
      'or null for the whole file. "severity" is one of critical, high, medium, low. With no findings, answer',
      '{"status": "pass", "findings": []}.',
      '',
      `JSON Schema of the answer: ${JSON.stringify(reviewAnswerJsonSchema())}`,
    ].join('\n'),
  );
  return `${parts.join('\n\n')}\n`;
}

/** Pure: the second, JSON-only request after an answer that could not be parsed (`code_review.repairRetry`). */
export function buildRepairPrompt(previousAnswer: string, problem: string): string {
  const capped = previousAnswer.length > 40_000 ? `${previousAnswer.slice(0, 40_000)}\n…(cut)` : previousAnswer;
  return [
    'A code review answer could not be read by a program: ' + problem + '.',
    'Rewrite it as exactly one JSON object in the format below, keeping every finding it reports, and output nothing',
    'else: no prose, no code fence. Do not use any tool.',
    '',
    `JSON Schema: ${JSON.stringify(reviewAnswerJsonSchema())}`,
    '',
    'The answer to rewrite:',
    '',
    capped,
    '',
  ].join('\n');
}

/** At most ten paths, then a count: a prompt is no place for a file list of thousands. */
function listPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).join(', ');
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}
