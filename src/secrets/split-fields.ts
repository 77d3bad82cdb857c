import { blanksStart, checkedGate, endsWithWord, isBase64Url } from './gate-checks.js';
import { refutedInJsonValue } from './json-value.js';
import { nameGate } from './name-gate.js';

/**
 * Settings written as a name field and a value field side by side: the credential's name is a value itself
 * (`{"name": "DB_PASSWORD", "value": "…"}`), so no `name = value` reading sees it. Each form pairs the field that holds
 * the name with the field that holds the value, on the same line or the next (a scan window holds both).
 */
export interface SplitFieldForm {
  /** Where people write it. */
  readonly syntax: string;
  /** Where the format is documented. */
  readonly reference: string;
  /** What comes right before the name (its quote or tag included). */
  readonly before: string;
  /** What comes between the name and the value (the name's closing quote or tag included, and the value field). */
  readonly between: string;
  /** The value, in a capture group named `secret…` of its own (JavaScript regexes do not share group names). */
  readonly value: string;
  /** An example, `NAME` where the name goes and `VALUE` where the value goes (docs and tests use it). */
  readonly example: string;
}

/** The end of the name's line and blanks at the start of the next, or blanks: the value field may wrap. */
const WRAP = '[ \\t]*(?:\\r?\\n[ \\t]*)?';
const QUOTED = (group: string) => `"(?<${group}>[^"\\r\\n]{1,200})"`;

export const SPLIT_FIELD_FORMS: readonly SplitFieldForm[] = [
  {
    syntax: 'JSON name/value pairs (Azure App Service settings, ECS task environments, Kubernetes env as JSON)',
    reference: 'https://learn.microsoft.com/azure/app-service/configure-common#edit-app-settings-in-bulk',
    before: '"(?:name|Name|key|Key)"[ \\t]*:[ \\t]*"',
    between: `"[ \\t]*,${WRAP}"(?:value|Value)"[ \\t]*:[ \\t]*`,
    value: QUOTED('secretJson'),
    example: '{ "name": "NAME", "value": "VALUE" }',
  },
  {
    syntax: 'CloudFormation parameter files',
    reference:
      'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-cli-creating-stack.html#using-cfn-cli-parameters',
    before: '"ParameterKey"[ \\t]*:[ \\t]*"',
    between: `"[ \\t]*,${WRAP}"ParameterValue"[ \\t]*:[ \\t]*`,
    value: QUOTED('secretParameter'),
    example: '{ "ParameterKey": "NAME", "ParameterValue": "VALUE" }',
  },
  {
    syntax: 'HCL name/value blocks (Terraform `app_setting`, Helm provider `set`)',
    reference: 'https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release#set',
    before: '(?<![\\w"])name[ \\t]*=[ \\t]*"',
    between: `"${WRAP}value[ \\t]*=[ \\t]*`,
    value: QUOTED('secretHcl'),
    example: 'app_setting {\n  name  = "NAME"\n  value = "VALUE"\n}',
  },
  {
    syntax: 'XML name/value properties (Hadoop and Hive `*-site.xml`, Oozie)',
    reference: 'https://hadoop.apache.org/docs/stable/hadoop-project-dist/hadoop-common/core-default.xml',
    before: '<name>',
    between: `</name>${WRAP}<value>`,
    value: '(?<secretXml>[^<>\\s]{1,200})</value>',
    example: '<property><name>NAME</name><value>VALUE</value></property>',
  },
  {
    syntax: 'Property lists (Apple `.plist`)',
    reference: 'https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/PropertyLists/',
    before: '<key>',
    between: `</key>${WRAP}<string>`,
    value: '(?<secretPlist>[^<>\\s]{1,200})</string>',
    example: '<key>NAME</key><string>VALUE</string>',
  },
];

/**
 * `variable "db_password" {` and, after the arguments people write first (`description`, `type`, `sensitive`, one per
 * line), its `default`. Several lines may lie between name and value, more than a line window holds, so its rules
 * read a block after the name.
 */
export const TERRAFORM_VARIABLE_FORM: SplitFieldForm = {
  syntax: 'Terraform variable defaults',
  reference: 'https://developer.hashicorp.com/terraform/language/values/variables#default-values',
  before: '(?<![\\w"])variable[ \\t]+"',
  // The arguments people write before `default`, one per line (a `validation` block ends the reading).
  between: `"[ \\t]*\\{(?:${WRAP}(?:description|type|sensitive|nullable|ephemeral)[ \\t]*=[^\\r\\n{]{0,300}){0,8}${WRAP}default[ \\t]*=[ \\t]*`,
  value: QUOTED('secretDefault'),
  example: 'variable "NAME" { default = "VALUE" }',
};

/** A name field holding a name with `core` in it, and the value field after it, in any of `SPLIT_FIELD_FORMS`. */
export function splitFieldPattern(core: string, forms: readonly SplitFieldForm[] = SPLIT_FIELD_FORMS): RegExp {
  // Each form's value group follows its own `between`; the name group is shared, so the forms' `before`s come first.
  const before = forms.map((form) => form.before).join('|');
  const after = forms.map((form) => form.between + form.value).join('|');
  return new RegExp(`(?:${before})(?<name>[A-Za-z0-9_.-]{0,40}?${core}[A-Za-z0-9_.-]{0,30})(?:${after})`, 'i');
}

/**
 * After the keyword: the rest of the name, then its closing quote followed by what separates it from the value field
 * (`,`, `{`, a line end, `value =`), or its closing tag. A credential-named JSON key (`"DB_PASSWORD": …`) has a `:`
 * after its quote and stops here.
 */
export const SPLIT_FIELD_GATE = checkedGate(
  nameGate(
    { run: 30, at: 'end', chars: '"<', next: ',{\r\nvV<' },
    String.raw`(?:"[ \t]*(?:[,{\r\n]|value[ \t]*=)|</(?:name|key)>)`,
    'i',
  ),
  refutedInJsonValue(inNameField),
);

/** How far `inNameField` reads back (the name, the blanks and the field before it) before it leaves it to the regex. */
const NAME_FIELD_REACH = 160;

/** Whether the UTF-16 code unit `code` may be in a name the split-field patterns take (`[A-Za-z0-9_.-]`, or ` `). */
function isNameOrSpace(code: number): boolean {
  return code === 32 || code === 46 || isBase64Url(code);
}

/**
 * Whether a keyword hit ending at `after` may be in a name the split-field patterns take: the name (letters, digits,
 * `_.-` and the blank of `secret key`) right after what one of `SPLIT_FIELD_FORMS`, or `TERRAFORM_VARIABLE_FORM`, has
 * before it: `<name>`, `<key>`, `"name": "`, `"key": "`, `"ParameterKey": "`, `name = "`, `variable "` (any case);
 * the name's one blank at most is that of its credential word (`SECRET_NAME`'s `api key`, `secret key`).
 * Reads back only, on the hit's line (a text's start is read as a line's); a reading back as far as
 * `NAME_FIELD_REACH` is left to the regex (true). A quoted word in code (`["token", …]`, `{"type": "token", …}`)
 * then opens no window.
 */
export function inNameField(text: string, after: number): boolean {
  const limit = after - NAME_FIELD_REACH;
  let at = after;
  // A name holds at most one blank, in its credential word (`api key`): prose is not read back word by word.
  let blanks = 0;
  // Never read before the text's start (an out-of-bounds read deoptimizes the compiled loop).
  while (at > 0) {
    const code = text.charCodeAt(at - 1);
    if (!isNameOrSpace(code) || (code === 32 && ++blanks > 1)) break;
    if (--at <= limit) return true;
  }
  const code = at > 0 ? text.charCodeAt(at - 1) : -1;
  if (code === 62) return endsWithWord(text, at - 1, '<name') || endsWithWord(text, at - 1, '<key');
  if (code !== 34) return false;
  const quote = at - 1;
  at = blanksStart(text, quote, limit);
  if (at === -1) return true;
  if (at < quote && endsWithWord(text, at, 'variable')) return true;
  const separator = at > 0 ? text.charCodeAt(at - 1) : -1;
  if (separator !== 58 && separator !== 61) return false;
  at = blanksStart(text, at - 1, limit);
  if (at === -1) return true;
  if (separator === 61) return endsWithWord(text, at, 'name') && !isWordOrQuote(at > 4 ? text.charCodeAt(at - 5) : -1);
  if (at === 0 || text.charCodeAt(at - 1) !== 34) return false;
  return (
    endsWithWord(text, at - 1, '"name') ||
    endsWithWord(text, at - 1, '"key') ||
    endsWithWord(text, at - 1, '"parameterkey')
  );
}

/** `\w` or `"`, as the HCL form's `(?<![\w"])` reads the character before `name`. */
function isWordOrQuote(code: number): boolean {
  return code === 34 || (isBase64Url(code) && code !== 45);
}

/** `db.password=\` with the value on the continuation line (Java `.properties`). */
export function continuedPropertyPattern(core: string): RegExp {
  return new RegExp(
    `(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,80}?${core}[A-Za-z0-9_.-]{0,40})[ \\t]*[=:][ \\t]*\\\\\\r?\\n[ \\t]*(?<secretContinued>[^\\s\\\\]{1,200})(?=[ \\t]*(?:\\r?\\n|$))`,
    'i',
  );
}

/** After the keyword: the rest of the name, `=` or `:`, then the backslash that continues the line. */
export const CONTINUED_PROPERTY_GATE = nameGate(
  { run: 40, at: 'separator', chars: '=:', value: '\\' },
  String.raw`[ \t]*[=:][ \t]*\\\r?\n`,
);
