import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ownWords } from '../../src/secrets/own-words.js';
import { redactSecrets } from '../../src/secrets/redact.js';

/**
 * tollgate never masks its own words: every string and template in src/ (a template with each `${…}` filled by a
 * plain word) passes through the masker unchanged. Collected from the source itself, so a new message is covered
 * the day it is written. A phrase that reads like a credential is marked with `ownWords(…)` where it is declared.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

/** Texts that are meant to be masked where they appear: they are followed by a credential, not by prose. */
const MASKED_BY_DESIGN = new Map([
  ['src/integrations/alerts/clone.ts', 'an HTTP header git is given, whose value is a token'],
]);

/** The secret rules' own tables (keywords, patterns, samples) are not messages. */
const NOT_MESSAGES = /^src\/secrets\/rules\//;

/** What fills a template's `${…}`: a word no rule takes for a secret on its own. */
const FILLER = 'value7';

interface SourceText {
  file: string;
  line: number;
  text: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function isOwnWordsArgument(node: ts.Node): boolean {
  const call = node.parent;
  return (
    call !== undefined &&
    ts.isCallExpression(call) &&
    ts.isIdentifier(call.expression) &&
    call.expression.text === 'ownWords' &&
    call.arguments[0] === node
  );
}

/** Every string literal and template of a file, with `ownWords` arguments marked as the running code marks them. */
function textsOf(path: string): SourceText[] {
  const file = relative(ROOT, path).split('\\').join('/');
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const texts: SourceText[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) {
      text = node.head.text + node.templateSpans.map((span) => FILLER + span.literal.text).join('');
    }
    if (text !== undefined) {
      if (isOwnWordsArgument(node)) ownWords(text);
      texts.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

describe("tollgate's own words", () => {
  test('every string and template in src/ passes the masker unchanged', () => {
    const texts = sourceFiles(SRC)
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((file) => !NOT_MESSAGES.test(file) && !MASKED_BY_DESIGN.has(file))
      .flatMap((file) => textsOf(join(ROOT, file)));
    expect(texts.length).toBeGreaterThan(5_000);
    const masked = texts
      .map(({ file, line, text }) => ({ where: `${file}:${line}`, text, masked: redactSecrets(text) }))
      .filter(({ text, masked }) => masked !== text)
      .map(({ where, text, masked }) => `${where} ${JSON.stringify(text)} became ${JSON.stringify(masked)}`);
    expect(masked).toEqual([]);
  });

  test('the texts left out are still in the tree, and still masked', () => {
    for (const [file] of MASKED_BY_DESIGN) {
      const texts = textsOf(join(ROOT, file));
      expect(texts.some(({ text }) => redactSecrets(text) !== text)).toBe(true);
    }
  });
});
