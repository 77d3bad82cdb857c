import { describe, expect, test } from 'vitest';
import { isDocExampleLine } from './doc-examples.js';

/** Whether the last line of `text` is a documentation example. */
function lastLineIsExample(text: string): boolean {
  const lines = text.split('\n');
  return isDocExampleLine((index) => lines[index] ?? null, lines.length - 1);
}

describe('documentation examples in comments', () => {
  test('usage indented under a doc comment’s prose (rdoc, Go, Python comments)', () => {
    expect(
      lastLineIsExample(
        '      # Returns +self+ if the password is correct, otherwise +false+.\n      #\n      #   user = User.new(name: "david", password: "mUc3m00RsqyRe")',
      ),
    ).toBe(true);
    expect(
      lastLineIsExample('// Open connects with the given options.\n//\n//\tdb := Open(Options{Password: "x9Kq"})'),
    ).toBe(true);
    expect(lastLineIsExample('# ==== Examples\n#   form_tag("/x", authenticity_token: "cf50faa3fe97702ca1ae")')).toBe(
      true,
    );
  });

  test('a fenced block or an @example in a doc comment, and a doctest line', () => {
    expect(lastLineIsExample('/// Builds a client.\n///\n/// ```\n/// let c = Client::new("k3yV4lue");')).toBe(true);
    expect(lastLineIsExample('/**\n * @example\n * connect({ password: "s3cr3tive" })')).toBe(true);
    expect(lastLineIsExample('    """\n    >>> connect(password="pw4Test")')).toBe(true);
  });

  test('commented-out code is not: no prose above it, or the indented line is not under prose', () => {
    expect(lastLineIsExample('# password = "Tr0ub4dor&3"')).toBe(false);
    expect(lastLineIsExample('# def connect\n#   password = "Tr0ub4dor&3"')).toBe(false);
    expect(lastLineIsExample('// if (prod) {\n//     const password = "Tr0ub4dor&3";')).toBe(false);
    expect(lastLineIsExample('# from db import connect to the primary\n#     password = "Tr0ub4dor&3"')).toBe(false);
    // Prose at the margin, but the credential is at the margin too: a note, not an example.
    expect(lastLineIsExample('# The old deploy used this one, keep it.\n# password = "Tr0ub4dor&3"')).toBe(false);
    // A fence closed above: outside it.
    expect(lastLineIsExample('/// ```\n/// let c = 1;\n/// ```\n/// token = "k3yV4lue"')).toBe(false);
  });

  test('inside a Python docstring or Ansible EXAMPLES; not inside other triple-quoted strings', () => {
    const examples = "EXAMPLES = r'''\n- name: Create a user\n  community.mysql.mysql_user:\n    password: Kq9mzT2x";
    expect(lastLineIsExample(examples)).toBe(true);
    expect(lastLineIsExample('def connect(host):\n    """\n    Connects, e.g. with\n      password="Kq9mzT2x"')).toBe(
      true,
    );
    expect(lastLineIsExample('SETTINGS = """\n[db]\npassword = Kq9mzT2x')).toBe(false);
    expect(lastLineIsExample("EXAMPLES = r'''\n- name: x\n'''\npassword = 'Kq9mzT2x'")).toBe(false);
    expect(lastLineIsExample('def f():\n    """Connects."""\n    password = "Kq9mzT2x"')).toBe(false);
  });

  test('code and preprocessor lines are not comments', () => {
    expect(lastLineIsExample('# Settings of the device.\n#define   WIFI_PASSWORD "Tr0ub4dor&3"')).toBe(false);
    expect(lastLineIsExample('password = "Tr0ub4dor&3"')).toBe(false);
  });
});
