import { blanksStart, endsWithWord, isBase64Url } from './gate-checks.js';
import type { SampleContext } from './rule.js';

/**
 * Container env entries (Kubernetes `env:`, ECS, compose-style lists): a name field and a value field in one list
 * item, read in either order by the `generic-*-k8s-env` rules (`rules/generic.ts`): their pattern, the look back of
 * their gate (`GATES.k8sEnv`) and the contexts their samples are tested in.
 */

/** How many lines of one item (or fields of one flow mapping) may stand between its name and its value. */
export const ITEM_BETWEEN = 6;

/**
 * A line of the item between its name and its value, where `content` matches the item's indentation (its `- `
 * counted as blanks): a blank or comment line, a line indented deeper, or another key at the item's indentation
 * (not `name` nor `value`, not a `- `).
 */
const itemLine = (content: string) =>
  `(?:[ \\t]*(?:#[^\\r\\n]*)?|${content}(?:[ \\t]+[^\\s#][^\\r\\n]*|(?!["']?(?:name|value)["']?[ \\t]*:)[^\\s#-][^\\r\\n]*))`;

/** Another field of a flow mapping or JSON object (`description: upstream`, `"type": "plain"`), a scalar only. */
const FLOW_FIELD = `(?!["']?(?:name|value)["']?[ \\t]*:)["']?[A-Za-z_][A-Za-z0-9_.-]{0,40}["']?[ \\t]*:[ \\t]*(?:"[^"\\r\\n]{0,200}"|'[^'\\r\\n]{0,200}'|[^,{}\\[\\]"'\\r\\n]{1,200})`;

/**
 * A container env entry: its `name:` line and its `value:` line (`- name: DB_PASSWORD` / `  value: …`), or both in a
 * flow mapping or object literal with unquoted keys (`{name: DB_PASSWORD, value: …}`; JSON's quoted keys are a split
 * field's, `split-fields.ts`); or its value first, then its name, in one list item: on the next line at the same
 * indentation (the `- ` of the item's first line counts as indentation: `- value: …` / `  name: …`), or after a `,`
 * in a flow mapping or JSON object (`{value: …, name: …}`, `{"value": "…", "name": "…"}`). The value-first form's own
 * groups (`secret…Item`, `envName`) hold it.
 * In either order, up to `ITEM_BETWEEN` lines of the same item may stand between the two (comments, blank lines, other
 * keys at the item's indentation, deeper lines), or up to as many other scalar fields of a flow mapping or JSON object;
 * the next item (a `- ` at the item's indentation) or a dedent ends the item, and a `name` or `value` key between them
 * would be another pair's.
 */
export const envEntryPattern = (core: string): RegExp => {
  const name = `[A-Za-z0-9_.-]{0,40}?${core}[A-Za-z0-9_.-]{0,40}`;
  const value = (suffix: string) =>
    `(?:"(?<secretQuoted${suffix}>[^"\\r\\n]{1,200})"|'(?<secretSingle${suffix}>[^'\\r\\n]{1,200})'|(?<secretBare${suffix}>[^\\s"']{1,200}))`;
  // Where the value-first form's `value` key starts: a line's start, past its indentation and a list item's `- `
  // (the next line's key is indented as far: `\k<indent>\k<dash>\k<gap>`), or past a flow mapping's `{` or `,`.
  // Read back only where a `value` key is (a look back from every blank of a long run of them is quadratic).
  const valueKeyStart = `(?<=(?:^|\\n)(?<indent>[ \\t]*)(?:-(?=(?<dash>[ \\t]))(?<gap>[ \\t]+))?|[{,][ \\t]*)`;
  // After a name-first flow mapping's value (`{name: …, value: …}`), its `,` or `}`: a bare value stops before it.
  // The block form has no `flow` group, `\k<flow>` matches nothing there, and its value is read as before.
  const flowEnd = '(?:(?=[ \\t]*[,}])|(?=\\k<flow>))';
  // The lines of the item between a value first and its name, at the value line's indentation (`itemLine`).
  const between = `(?:${itemLine('\\k<indent>\\k<dash>\\k<gap>')}\\r?\\n){0,${ITEM_BETWEEN}}?`;
  const nameAfter = `[ \\t]*(?:\\r?\\n${between}\\k<indent>\\k<dash>\\k<gap>|(?:,[ \\t]*(?:\\r?\\n[ \\t]*)?${FLOW_FIELD}[ \\t]*){0,${ITEM_BETWEEN}}?,[ \\t]*(?:\\r?\\n[ \\t]*)?)["']?name["']?[ \\t]*:[ \\t]*["']?(?<envName>${name})["']?[ \\t]*(?:\\r?\\n|[,}])`;
  // A name first with lines of its item before its `value:` line: the name line's indentation and `- ` read back
  // from the line's end (tried only where the value is not on the next line, as before).
  const nameLineBack = `(?<=(?:^|\\n)(?<nameIndent>[ \\t]*)(?:-(?=(?<nameDash>[ \\t]))(?<nameGap>[ \\t]+))?["']?name["']?[ \\t]*:[^\\r\\n]*)`;
  const nameContent = '\\k<nameIndent>\\k<nameDash>\\k<nameGap>';
  const linesBetween = `${nameLineBack}(?:\\r?\\n${itemLine(nameContent)}){1,${ITEM_BETWEEN}}\\r?\\n${nameContent}`;
  const fieldsBetween = `(?:[ \\t]*(?:\\r?\\n[ \\t]*)?${FLOW_FIELD}[ \\t]*,){0,${ITEM_BETWEEN}}?`;
  return new RegExp(
    `name:[ \\t]*["']?(?<name>${name})["']?[ \\t]*(?:\\r?\\n[ \\t]*|(?<flow>,)${fieldsBetween}[ \\t]*|${linesBetween})value:[ \\t]*${value('')}${flowEnd}|(?=["']?value)${valueKeyStart}["']?value["']?[ \\t]*:[ \\t]*${value('Item')}(?=${nameAfter})`,
    'i',
  );
};

/** How far `namedByNameKey` reads back over the name, and over blanks, before it leaves the verdict to the regex. */
const NAME_KEY_REACH = 128;

/** Whether the UTF-16 code unit `code` may be in a name the env-entry patterns take (`[A-Za-z0-9_.-]`, or a blank). */
function isNameOrBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 46 || isBase64Url(code);
}

/** Where a run of blanks ending at `end` starts, or -1 when it is longer than `NAME_KEY_REACH`. */
function blanksBefore(text: string, end: number): number {
  return blanksStart(text, end, Math.max(0, end - NAME_KEY_REACH) - 1);
}

/**
 * Whether a keyword hit ending at `after` may be in the value of a `name` key, as every env-entry pattern has it:
 * `name`, an optional quote, blanks, `:`, blanks, an optional quote, then the name holding the hit (letters, digits,
 * `_.-`, and the blank of `api key`). Reads back only, and stops at a line feed; too long a run to read is left to
 * the regex (true). Most lines that end in a credential word (`# enter the password`) then open no window.
 */
export function namedByNameKey(text: string, after: number): boolean {
  let at = after;
  const stop = Math.max(0, after - NAME_KEY_REACH);
  while (at > 0 && isNameOrBlank(text.charCodeAt(at - 1))) if (--at < stop) return true;
  let code = at > 0 ? text.charCodeAt(at - 1) : -1;
  if (code === 34 || code === 39) {
    at = blanksBefore(text, at - 1);
    if (at === -1) return true;
    code = at > 0 ? text.charCodeAt(at - 1) : -1;
  }
  if (code !== 58) return false;
  at = blanksBefore(text, at - 1);
  if (at === -1) return true;
  code = at > 0 ? text.charCodeAt(at - 1) : -1;
  if (code === 34 || code === 39) at--;
  return endsWithWord(text, at, 'name');
}

/** Each order and form an env entry is written in; `value` renders the value as written (quoted or bare). */
export const envEntryContexts = (name: string, value: (v: string) => string): SampleContext[] => [
  {
    name: 'k8s env entry',
    path: 'k8s/deployment.yaml',
    render: (v) => `env:\n  - name: ${name}\n    value: ${value(v)}\n`,
  },
  {
    name: 'k8s env entry, value first',
    path: 'k8s/deployment.yaml',
    render: (v) => `env:\n  - name: LOG_LEVEL\n    value: debug\n  - value: ${value(v)}\n    name: ${name}\n`,
  },
  {
    name: 'k8s env entry, value first, under a key',
    path: 'k8s/deployment.yaml',
    render: (v) =>
      `    env:\n    -   value: ${value(v)}\n        name: ${name}\n    - name: PORT\n      value: "8080"\n`,
  },
  {
    name: 'flow mapping',
    path: 'compose/app.yaml',
    render: (v) => `env:\n  - {name: ${name}, value: ${value(v)}}\n`,
  },
  {
    name: 'flow mapping, value first',
    path: 'compose/app.yaml',
    render: (v) => `env:\n  - {value: ${value(v)}, name: ${name}}\n`,
  },
  {
    name: 'JSON in YAML, value first',
    path: 'k8s/pod.yaml',
    render: (v) => `env: [{"value": "${v}", "name": "${name}"}, {"name": "PORT", "value": "8080"}]\n`,
  },
];
