/**
 * CodeQL's languages, how to tell a file belongs to one, and how to build its database. Build mode `none` (no
 * compiler run) where CodeQL supports it; Go and Swift need a build, so they keep CodeQL's default (autobuild).
 * https://docs.github.com/en/code-security/code-scanning/creating-an-advanced-setup-for-code-scanning/codeql-code-scanning-for-compiled-languages#codeql-build-modes
 */

export const CODEQL_LANGUAGE_IDS = [
  'actions',
  'cpp',
  'csharp',
  'go',
  'java-kotlin',
  'javascript-typescript',
  'python',
  'ruby',
  'swift',
] as const;
export type CodeqlLanguage = (typeof CODEQL_LANGUAGE_IDS)[number];

export interface CodeqlLanguageInfo {
  id: CodeqlLanguage;
  /** The extractor's name in `codeql resolve languages` (`javascript` for javascript-typescript). */
  extractor: string;
  /** Prefix of the standard query packs: `codeql/<prefix>-queries:codeql-suites/<prefix>-<suite>.qls`. */
  queryPrefix: string;
  buildMode: 'none' | 'default';
  extensions: readonly string[];
}

export const CODEQL_LANGUAGES: Readonly<Record<CodeqlLanguage, CodeqlLanguageInfo>> = {
  actions: { id: 'actions', extractor: 'actions', queryPrefix: 'actions', buildMode: 'none', extensions: [] },
  cpp: {
    id: 'cpp',
    extractor: 'cpp',
    queryPrefix: 'cpp',
    buildMode: 'none',
    extensions: ['.c', '.cc', '.cpp', '.cxx', '.c++', '.h', '.hh', '.hpp', '.hxx', '.h++', '.inl', '.ipp'],
  },
  csharp: {
    id: 'csharp',
    extractor: 'csharp',
    queryPrefix: 'csharp',
    buildMode: 'none',
    extensions: ['.cs', '.csx', '.cshtml', '.razor'],
  },
  go: { id: 'go', extractor: 'go', queryPrefix: 'go', buildMode: 'default', extensions: ['.go'] },
  'java-kotlin': {
    id: 'java-kotlin',
    extractor: 'java',
    queryPrefix: 'java',
    buildMode: 'none',
    extensions: ['.java', '.kt', '.kts'],
  },
  'javascript-typescript': {
    id: 'javascript-typescript',
    extractor: 'javascript',
    queryPrefix: 'javascript',
    buildMode: 'none',
    extensions: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.vue', '.html', '.htm'],
  },
  python: { id: 'python', extractor: 'python', queryPrefix: 'python', buildMode: 'none', extensions: ['.py', '.pyi'] },
  ruby: {
    id: 'ruby',
    extractor: 'ruby',
    queryPrefix: 'ruby',
    buildMode: 'none',
    extensions: ['.rb', '.erb', '.gemspec', '.rake'],
  },
  swift: { id: 'swift', extractor: 'swift', queryPrefix: 'swift', buildMode: 'default', extensions: ['.swift'] },
};

const WORKFLOW = /^\.github\/workflows\/[^/]+\.ya?ml$/;
const ACTION = /(^|\/)action\.ya?ml$/;

/** The CodeQL language a repository path belongs to, if any. */
export function codeqlLanguageOf(path: string): CodeqlLanguage | null {
  if (WORKFLOW.test(path) || ACTION.test(path)) return 'actions';
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'Gemfile' || base === 'Rakefile') return 'ruby';
  const dot = base.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = base.slice(dot).toLowerCase();
  for (const info of Object.values(CODEQL_LANGUAGES)) if (info.extensions.includes(extension)) return info.id;
  return null;
}

const SUITES = new Set(['code-scanning', 'security-extended', 'security-and-quality']);

/** What to pass `database analyze` as the queries: a standard suite by name, or the user's own spec as it is. */
export function querySpecFor(language: CodeqlLanguage, queries: string): string {
  if (!SUITES.has(queries)) return queries;
  const prefix = CODEQL_LANGUAGES[language].queryPrefix;
  return `codeql/${prefix}-queries:codeql-suites/${prefix}-${queries}.qls`;
}
