/**
 * How values are written in a file, judged by its name. In program code an unquoted value after `password =` is a
 * variable, not a password; in `.env`, YAML, INI or a Dockerfile it is the value itself.
 */
export type FileSyntax = 'code' | 'config';

const CODE_EXTENSIONS = new Set([
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'mts',
  'cts',
  'tsx',
  'py',
  'rb',
  'go',
  'java',
  'kt',
  'kts',
  'scala',
  'groovy',
  'cs',
  'fs',
  'vb',
  'php',
  'swift',
  'rs',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'm',
  'mm',
  'dart',
  'lua',
  'pl',
  'pm',
  'r',
  'ex',
  'exs',
  'erl',
  'clj',
  'vue',
  'svelte',
  'ipynb',
  'sql',
  'tf',
  'hcl',
  'gradle',
  'ps1',
  'psm1',
]);

/** Program files named without an extension (Ruby's build and dependency files, Jenkins pipelines). */
const CODE_FILE_NAMES = new Set([
  'rakefile',
  'gemfile',
  'guardfile',
  'capfile',
  'vagrantfile',
  'podfile',
  'fastfile',
  'appfile',
  'dangerfile',
  'brewfile',
  'jenkinsfile',
]);

/**
 * A script named without an extension (`bin/ansible-console`) whose `#!` line runs a program language's interpreter.
 * Shell scripts stay `config`: in shell, `PASSWORD=value` unquoted is the value itself.
 */
const CODE_SHEBANG =
  /^#![ \t]*\S*?(?:\/env[ \t]+(?:-S[ \t]+)?)?(?:\/|\b)(?:python|ruby|node(?:js)?|perl|php|deno|bun|lua|groovy)[\d.]*(?:[ \t\r\n]|$)/;

/** `head`, the start of the file's text when known, decides for files without an extension (by their `#!` line). */
export function syntaxOf(path: string, head?: string): FileSyntax {
  return syntaxOfName(path) ?? syntaxOfHead(head);
}

/** The syntax the path alone decides; undefined for a file without an extension, whose `#!` line decides. */
export function syntaxOfName(path: string): FileSyntax | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (CODE_FILE_NAMES.has(base)) return 'code';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return CODE_EXTENSIONS.has(base.slice(dot + 1)) ? 'code' : 'config';
}

/** The syntax of a file without an extension, from the start of its text when known. */
export function syntaxOfHead(head: string | undefined): FileSyntax {
  return head?.startsWith('#!') && CODE_SHEBANG.test(head.slice(0, 200)) ? 'code' : 'config';
}

/** Lockfiles hold integrity hashes and resolved URLs, never credentials worth the noise. */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'composer.lock',
  'gemfile.lock',
  'cargo.lock',
  'poetry.lock',
  'pipfile.lock',
  'go.sum',
  'packages.lock.json',
  'podfile.lock',
  'mix.lock',
  'uv.lock',
]);

/**
 * API documentation examples (the AWS SDK's `*.examples.json`, OpenAPI `*.example.yaml`): their passwords and
 * tokens are illustrations written for readers, so name-based rules and example-prone formats skip them.
 */
export function isDocumentationExample(path: string): boolean {
  return /\.examples?\.(?:json|ya?ml)$/i.test(path);
}

export function isLockfile(path: string): boolean {
  return LOCKFILES.has(path.slice(path.lastIndexOf('/') + 1).toLowerCase());
}
