import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { readJsonFileResult, writeFileAtomic } from '../../../../core/state/atomic-write.js';
import type { SarifIssue } from '../../reader/read-sarif.js';

/**
 * `.tollgate/cache/codeql/last-analysis.json`: per language, the fingerprint of what was last analyzed and the
 * issues that analysis kept. A language whose files have not changed since is not analyzed again; its issues stand.
 * A missing or unreadable file only means "analyze again".
 */
const issueSchema = z.looseObject({
  producer: z.string(),
  toolName: z.string(),
  ruleId: z.string(),
  level: z.enum(['none', 'note', 'warning', 'error']),
  message: z.string(),
  path: z.string(),
});

const memorySchema = z.object({
  version: z.literal(1),
  languages: z.record(z.string(), z.object({ fingerprint: z.string(), at: z.string(), issues: z.array(issueSchema) })),
});
type Memory = z.output<typeof memorySchema>;

export interface LanguageMemory {
  fingerprint: string;
  at: string;
  issues: SarifIssue[];
}

export function analysisMemoryPath(cacheDir: string): string {
  return join(cacheDir, 'codeql', 'last-analysis.json');
}

async function load(path: string): Promise<Memory> {
  const read = await readJsonFileResult(path, memorySchema).catch(() => ({ kind: 'missing' as const }));
  return read.kind === 'ok' ? read.value : { version: 1, languages: {} };
}

export async function recallLanguage(path: string, language: string): Promise<LanguageMemory | undefined> {
  const memory = await load(path);
  return memory.languages[language] as LanguageMemory | undefined;
}

export async function rememberLanguage(path: string, language: string, entry: LanguageMemory): Promise<void> {
  const memory = await load(path);
  memory.languages[language] = entry as unknown as Memory['languages'][string];
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, `${JSON.stringify(memory)}\n`, { label: '.tollgate/cache/codeql/last-analysis.json' });
}
