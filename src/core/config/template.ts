import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TollgateError } from '../errors.js';
import { packageFile } from '../package-files.js';

/**
 * The commented default config has one source: the yaml fence in `docs/config.md`, which ships with the package.
 * `tollgate init` writes exactly that text.
 */
export const CONFIG_DOC_URL = pathToFileURL(packageFile('docs/config.md'));

const YAML_FENCE = /^```yaml\n([\s\S]*?)^```$/gm;

/** The content of the one ```yaml fence of the config page; throws if there is not exactly one. */
export function extractConfigTemplate(markdown: string): string {
  const fences = [...markdown.replace(/\r\n/g, '\n').matchAll(YAML_FENCE)];
  if (fences.length !== 1) {
    throw new TollgateError('io', `docs/config.md: expected exactly one \`\`\`yaml block, found ${fences.length}`);
  }
  return fences[0]![1]!;
}

export async function readConfigTemplate(docUrl: URL = CONFIG_DOC_URL): Promise<string> {
  let markdown: string;
  try {
    markdown = await readFile(docUrl, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new TollgateError(
      'io',
      `cannot read the config template ${fileURLToPath(docUrl)} (${code}); reinstall tollgate`,
    );
  }
  return extractConfigTemplate(markdown);
}
