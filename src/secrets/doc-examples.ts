/**
 * Documentation examples inside program code: the usage shown in a doc comment (`#   user.password = "vr00m"` under
 * a method's description, a fenced block in a `///` comment, a JSDoc `@example`) or a doctest (`>>> connect(password=
 * "…")`). Library code is full of them, and they are written for readers, like a docs page. Commented-out code is
 * not one: it has no prose above it, so a credential left in it is still judged as any other.
 */

/** A comment line: its marker, the spaces after it, and the rest. `#define`/`#include` have no space: not comments. */
const COMMENT_LINE = /^[ \t]*(#|\/\/\/?|\*|--)(?:([ \t]*)(\S.*))?$/;
/** A doctest prompt (Python `>>>`/`...`, irb, a shell prompt inside a docstring). */
const DOCTEST_LINE = /^[ \t]*(?:>>>|\.\.\.|irb(?:\([^)]*\))?>)[ \t]/;
/** How far up a comment block is read for the prose that makes it documentation. */
const MAX_LINES_UP = 80;
/** How far up a Python docstring's opening quotes are looked for (Ansible's EXAMPLES run to hundreds of lines). */
const MAX_DOCSTRING_UP = 400;
/** A triple quote anywhere in a line: the docstring's opening or closing one. */
const TRIPLE_QUOTE = /'''|"""/;
/** Ansible's documentation strings (`EXAMPLES = r'''`), or a docstring opening right under a `def`/`class` line. */
const DOC_STRING_OPENER = /^[ \t]*(?:(?:EXAMPLES|DOCUMENTATION|RETURN)[ \t]*=[ \t]*)?[rRuU]?(?:'''|""")/;
const DEFINITION = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t].*:[ \t]*(?:#.*)?$/;
/** First words of code, which a prose sentence does not start with. */
const CODE_START =
  /^(?:def|class|module|function|func|fn|const|let|var|import|from|return|if|else|elif|elsif|unless|for|while|require|include|package|public|private|protected|static|end|try|catch|except|with|use|export|async|await|new|self|this)\b/;

interface CommentLine {
  readonly marker: string;
  /** Columns of space after the marker (a tab counts as two). */
  readonly indent: number;
  readonly content: string;
}

function commentLine(line: string): CommentLine | null {
  const match = COMMENT_LINE.exec(line.replace(/\r$/, ''));
  if (!match) return null;
  const content = match[3] ?? '';
  if (content !== '' && match[2] === '') return null; // `#define`, `//nolint`, `*ptr = …`: code, not a comment
  return { marker: match[1]!, indent: (match[2] ?? '').replace(/\t/g, '  ').length, content };
}

/**
 * A sentence at the comment's own margin: three words in a row, no assignment or block punctuation, and not starting
 * like a statement (`# from db import connect` is commented-out code).
 */
function isProse(comment: CommentLine): boolean {
  if (comment.indent > 1) return false;
  const text = comment.content.replace(/^(?:[*-]|=+)[ \t]+/, ''); // a bullet or an rdoc heading
  if (/[=;{}]/.test(text) || CODE_START.test(text)) return false;
  return /[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}/.test(text) || /^Examples?:?$/i.test(text);
}

/**
 * Whether line `index` (from `lineAt`, null above the text held) is a documentation example: a doctest line, or a
 * comment line inside a fenced block or after `@example` in its comment, or indented past a comment whose prose sits
 * at the margin above it.
 */
export function isDocExampleLine(lineAt: (index: number) => string | null, index: number): boolean {
  const own = lineAt(index);
  if (own === null) return false;
  if (DOCTEST_LINE.test(own)) return true;
  const comment = commentLine(own);
  if (comment === null) return isInDocString(lineAt, index);
  if (comment.content === '') return false;
  let fences = 0;
  let prose = false;
  for (let at = index - 1; at >= 0 && at >= index - MAX_LINES_UP; at--) {
    const text = lineAt(at);
    const above = text === null ? null : commentLine(text);
    if (above === null || above.marker !== comment.marker) break;
    if (above.content.startsWith('```') || above.content.startsWith('~~~')) fences++;
    else if (above.content.startsWith('@example')) return true;
    else if (!prose && isProse(above)) prose = true;
  }
  if (fences % 2 === 1) return true;
  return prose && comment.indent >= 2;
}

/**
 * Inside a Python docstring: the nearest triple quote above opens Ansible's `EXAMPLES`/`DOCUMENTATION`/`RETURN` or a
 * `def`/`class` docstring. Other triple-quoted strings (SQL, a config template) may hold the real value.
 */
function isInDocString(lineAt: (index: number) => string | null, index: number): boolean {
  if (TRIPLE_QUOTE.test(lineAt(index) ?? '')) return false;
  for (let at = index - 1; at >= 0 && at >= index - MAX_DOCSTRING_UP; at--) {
    const text = lineAt(at);
    if (text === null) return false;
    if (!TRIPLE_QUOTE.test(text)) continue;
    const opener = DOC_STRING_OPENER.exec(text);
    // A line with two triple quotes opens and closes a string: the value is outside it.
    if (!opener || text.split(opener[0].slice(-3)).length > 2) return false;
    if (/^[ \t]*[A-Z]/.test(text)) return true;
    return DEFINITION.test(lineAt(at - 1) ?? '');
  }
  return false;
}
