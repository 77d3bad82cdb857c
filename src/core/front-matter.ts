import { parse as parseYaml } from 'yaml';

/** A Markdown file split at its `---` front matter: the YAML text (null when there is none) and the body. */
export interface FrontMatterSplit {
  yaml: string | null;
  body: string;
}

/** Pure: splits `---\n<yaml>\n---\n<body>`; a file that does not start with front matter is all body. */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  return match ? { yaml: match[1]!, body: match[2]! } : { yaml: null, body: text };
}

/** The front matter's YAML parsed; throws YAML's own error on text that is not valid YAML. */
export function parseFrontMatter(yaml: string | null): unknown {
  return yaml === null ? {} : (parseYaml(yaml) ?? {});
}
