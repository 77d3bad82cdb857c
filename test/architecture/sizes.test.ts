import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Small files and short functions keep the house easy to read: no source file over 400 lines and no function over
 * 80 lines, outside tests and data tables (the secret rules, whose length is their patterns).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** Data tables: long because each entry is one rule, not because of logic. */
const TABLES = [/^src\/secrets\/rules\//];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const rel = (path: string) => relative(ROOT, path).split('\\').join('/');
const files = sourceFiles(SRC).filter((file) => !TABLES.some((table) => table.test(rel(file))));

function functionName(node: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) found.push(`${rel(file)}:${start + 1} ${functionName(node, source)} (${lines})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('sizes', () => {
  test(`no source file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${rel(file)} (${lines})`);
    expect(long).toEqual([]);
  });

  test(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
