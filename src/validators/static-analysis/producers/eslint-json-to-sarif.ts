import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/**
 * ESLint's `--format json` output (https://eslint.org/docs/latest/use/formatters/#json), mapped to SARIF in the
 * shape `@microsoft/eslint-formatter-sarif` writes (absolute file URIs, rules with help URIs). That formatter pins
 * eslint 8, so we map the JSON ourselves instead of depending on it.
 */
const messageSchema = z.object({
  ruleId: z.string().nullable().optional(),
  severity: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  endLine: z.number().int().optional(),
  endColumn: z.number().int().optional(),
  fatal: z.boolean().optional(),
});

export const eslintJsonSchema = z.array(
  z.object({
    filePath: z.string(),
    messages: z.array(messageSchema),
  }),
);
export type EslintJson = z.output<typeof eslintJsonSchema>;

/** Parse errors carry no rule id; they get this one. */
const ESLINT_PARSE_ERROR_RULE = 'eslint/parse-error';

function helpUriFor(ruleId: string): string | undefined {
  // Core rules have no plugin prefix; plugin rules document themselves elsewhere.
  return ruleId.includes('/') ? undefined : `https://eslint.org/docs/latest/rules/${ruleId}`;
}

export function eslintJsonToSarif(results: EslintJson, options: { version?: string } = {}): object {
  const ruleIds = new Set<string>();
  const sarifResults: object[] = [];
  for (const file of results) {
    for (const message of file.messages) {
      // Messages without a rule that are not fatal are notices ("File ignored because of a matching ignore pattern").
      if (!message.ruleId && !message.fatal) continue;
      const ruleId = message.ruleId ?? ESLINT_PARSE_ERROR_RULE;
      ruleIds.add(ruleId);
      const region: Record<string, number> = {};
      if (message.line) region.startLine = message.line;
      if (message.column) region.startColumn = message.column;
      if (message.endLine) region.endLine = message.endLine;
      if (message.endColumn) region.endColumn = message.endColumn;
      sarifResults.push({
        ruleId,
        level: message.severity === 2 ? 'error' : message.severity === 1 ? 'warning' : 'note',
        message: { text: message.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: pathToFileURL(file.filePath).href },
              ...(Object.keys(region).length > 0 ? { region } : {}),
            },
          },
        ],
      });
    }
  }
  const rules = [...ruleIds].sort().map((id) => {
    const helpUri = helpUriFor(id);
    return helpUri ? { id, helpUri } : { id };
  });
  return {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: 'ESLint',
            informationUri: 'https://eslint.org',
            ...(options.version ? { version: options.version } : {}),
            rules,
          },
        },
        results: sarifResults,
      },
    ],
  };
}
