/**
 * A quick, conservative check for regular expressions whose backtracking can take super-linear time: a repeated group
 * whose body can split the same text two ways. `(a+)+`, `(a*)*`, `(\w+\s?)*` (a variable-length part whose
 * characters can also start what follows it, or the next repetition) and `(a|ab)*` (alternatives that start alike).
 * It answers for the shapes it understands and stays quiet otherwise: `([a-z]+\.)+` is fine, because each repetition
 * must end at a `.` the inner part cannot match. Used on user-supplied rules (config, imported gitleaks files), which,
 * unlike the built-in ones, are not timed on adversarial input by a test.
 */

/** 0..127: ASCII code points; 128: "any character beyond ASCII". */
type CharSet = Uint8Array;
const SIZE = 129;
const NON_ASCII = 128;

type Node =
  | { kind: 'chars'; set: CharSet }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'assert' }
  | { kind: 'repeat'; node: Node; min: number; max: number; text: string };

/** An outer repeat counts as repeating, and an inner part as variable-length, beyond this many extra iterations. */
const MANY = 16;

/** Why the pattern can take super-linear time, or null when the heuristic sees nothing wrong (or cannot parse it). */
export function superLinearReason(source: string, flags = ''): string | null {
  let tree: Node;
  try {
    tree = new Parser(source, flags).parse();
  } catch {
    return null; // Not a shape this parser knows; `new RegExp` has already judged validity.
  }
  return findAmbiguousRepeat(tree);
}

function findAmbiguousRepeat(node: Node): string | null {
  if (node.kind === 'group') {
    for (const sequence of node.alternatives) {
      for (const item of sequence) {
        const reason = findAmbiguousRepeat(item);
        if (reason) return reason;
      }
    }
    return null;
  }
  if (node.kind !== 'repeat') return null;
  const inner = findAmbiguousRepeat(node.node);
  if (inner) return inner;
  if (node.max - node.min <= MANY) return null;
  const alternatives = node.node.kind === 'group' ? node.node.alternatives : [[node.node]];
  const starts = alternatives.map((sequence) => firstOf(sequence, 0).set);
  for (let i = 0; i < starts.length; i++) {
    for (let j = i + 1; j < starts.length; j++) {
      if (intersects(starts[i]!, starts[j]!)) return `alternatives that can match the same text in ${node.text}`;
    }
  }
  const wrap = firstOf([node.node], 0).set;
  for (const sequence of alternatives) {
    for (let i = 0; i < sequence.length; i++) {
      const item = sequence[i]!;
      if (!isVariable(item)) continue;
      const rest = firstOf(sequence, i + 1);
      const follow = rest.nullable ? union(rest.set, wrap) : rest.set;
      if (intersects(charsOf(item), follow)) return `nested quantifiers in ${node.text}`;
    }
  }
  return null;
}

/** A repeat of open length, or a group holding one. */
function isVariable(node: Node): boolean {
  if (node.kind === 'repeat') return node.max - node.min > MANY || isVariable(node.node);
  if (node.kind === 'group') return node.alternatives.some((sequence) => sequence.some(isVariable));
  return false;
}

/** Every character the node can consume. */
function charsOf(node: Node): CharSet {
  switch (node.kind) {
    case 'chars':
      return node.set;
    case 'assert':
      return new Uint8Array(SIZE);
    case 'repeat':
      return charsOf(node.node);
    case 'group': {
      const out = new Uint8Array(SIZE);
      for (const sequence of node.alternatives) for (const item of sequence) unionInto(out, charsOf(item));
      return out;
    }
  }
}

/** The characters that can start `sequence[from…]`, and whether that tail can match the empty string. */
function firstOf(sequence: readonly Node[], from: number): { set: CharSet; nullable: boolean } {
  const set = new Uint8Array(SIZE);
  for (let i = from; i < sequence.length; i++) {
    const item = firstOfNode(sequence[i]!);
    unionInto(set, item.set);
    if (!item.nullable) return { set, nullable: false };
  }
  return { set, nullable: true };
}

function firstOfNode(node: Node): { set: CharSet; nullable: boolean } {
  switch (node.kind) {
    case 'chars':
      return { set: node.set, nullable: false };
    case 'assert':
      return { set: new Uint8Array(SIZE), nullable: true };
    case 'repeat': {
      const inner = firstOfNode(node.node);
      return { set: inner.set, nullable: node.min === 0 || inner.nullable };
    }
    case 'group': {
      const set = new Uint8Array(SIZE);
      let nullable = false;
      for (const sequence of node.alternatives) {
        const item = firstOf(sequence, 0);
        unionInto(set, item.set);
        nullable ||= item.nullable;
      }
      return { set, nullable };
    }
  }
}

function intersects(a: CharSet, b: CharSet): boolean {
  for (let i = 0; i < SIZE; i++) if (a[i] && b[i]) return true;
  return false;
}

function union(a: CharSet, b: CharSet): CharSet {
  const out = new Uint8Array(a);
  unionInto(out, b);
  return out;
}

function unionInto(target: CharSet, source: CharSet): void {
  for (let i = 0; i < SIZE; i++) if (source[i]) target[i] = 1;
}

function setOf(test: (code: number) => boolean, nonAscii: boolean): CharSet {
  const set = new Uint8Array(SIZE);
  for (let code = 0; code < 128; code++) if (test(code)) set[code] = 1;
  if (nonAscii) set[NON_ASCII] = 1;
  return set;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isWord = (c: number) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const ALL = () => setOf(() => true, true);

class Parser {
  private at = 0;
  private readonly ignoreCase: boolean;
  private readonly dotAll: boolean;

  constructor(
    private readonly source: string,
    flags: string,
  ) {
    this.ignoreCase = flags.includes('i');
    this.dotAll = flags.includes('s');
  }

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new Error('unbalanced )');
    return node;
  }

  private alternation(): Node {
    const alternatives: Node[][] = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      alternatives.push(this.sequence());
    }
    return { kind: 'group', alternatives };
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const start = this.at;
      const atom = this.atom();
      items.push(this.quantified(atom, start));
    }
    return items;
  }

  private quantified(atom: Node, start: number): Node {
    const rest = this.source.slice(this.at);
    const match = /^(?:\*|\+|\?|\{(\d+)(?:(,)(\d*))?\})/.exec(rest);
    if (!match) return atom;
    this.at += match[0].length;
    if (this.source[this.at] === '?') this.at++;
    let min = 0;
    let max = Number.POSITIVE_INFINITY;
    if (match[0] === '+') min = 1;
    else if (match[0] === '?') max = 1;
    else if (match[1] !== undefined) {
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
    }
    return { kind: 'repeat', node: atom, min, max, text: this.source.slice(start, this.at) };
  }

  private atom(): Node {
    const char = this.source[this.at]!;
    this.at++;
    switch (char) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'chars', set: this.fold(this.charClass()) };
      case '.':
        return { kind: 'chars', set: setOf((c) => this.dotAll || (c !== 10 && c !== 13), true) };
      case '^':
      case '$':
        return { kind: 'assert' };
      case '\\':
        return this.escape();
      default:
        return { kind: 'chars', set: this.fold(this.literal(char.charCodeAt(0))) };
    }
  }

  private group(): Node {
    let lookaround = false;
    if (this.source.startsWith('?:', this.at)) this.at += 2;
    else if (/^\?<?[=!]/.test(this.source.slice(this.at, this.at + 3))) {
      lookaround = true;
      this.at += this.source[this.at + 1] === '<' ? 3 : 2;
    } else if (this.source.startsWith('?<', this.at)) this.at = this.source.indexOf('>', this.at) + 1;
    else if (this.source[this.at] === '?') throw new Error('unknown group');
    const inner = this.alternation();
    if (this.source[this.at] !== ')') throw new Error('unclosed group');
    this.at++;
    return lookaround ? { kind: 'assert' } : inner;
  }

  private escape(): Node {
    const char = this.source[this.at]!;
    if (char === 'b' || char === 'B') {
      this.at++;
      return { kind: 'assert' };
    }
    if (/[1-9]/.test(char) || char === 'k') throw new Error('back-references are not analysed');
    return { kind: 'chars', set: this.fold(this.escapedSet()) };
  }

  /** After a `\`, inside or outside a class: the set it stands for. */
  private escapedSet(): CharSet {
    const char = this.source[this.at]!;
    this.at++;
    switch (char) {
      case 'd':
        return setOf(isDigit, false);
      case 'D':
        return setOf((c) => !isDigit(c), true);
      case 'w':
        return setOf(isWord, false);
      case 'W':
        return setOf((c) => !isWord(c), true);
      case 's':
        return setOf(isSpace, true);
      case 'S':
        return setOf((c) => !isSpace(c), true);
      case 'p':
      case 'P':
        this.at = this.source.indexOf('}', this.at) + 1;
        return ALL();
      case 'n':
        return this.literal(10);
      case 'r':
        return this.literal(13);
      case 't':
        return this.literal(9);
      case 'f':
        return this.literal(12);
      case 'v':
        return this.literal(11);
      case '0':
        return this.literal(0);
      case 'x': {
        const code = Number.parseInt(this.source.slice(this.at, this.at + 2), 16);
        this.at += 2;
        return this.literal(code);
      }
      case 'u': {
        const braced = this.source[this.at] === '{';
        const end = braced ? this.source.indexOf('}', this.at) : this.at + 4;
        const code = Number.parseInt(this.source.slice(braced ? this.at + 1 : this.at, end), 16);
        this.at = braced ? end + 1 : end;
        return this.literal(code);
      }
      default:
        return this.literal(char.charCodeAt(0));
    }
  }

  /** After a `[`: the class up to its `]`. */
  private charClass(): CharSet {
    const negated = this.source[this.at] === '^';
    if (negated) this.at++;
    const set = new Uint8Array(SIZE);
    while (this.source[this.at] !== ']') {
      if (this.at >= this.source.length) throw new Error('unclosed class');
      const from = this.classMember();
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && from.code !== undefined) {
        this.at++;
        const to = this.classMember();
        if (to.code === undefined) throw new Error('bad range');
        for (let code = from.code; code <= to.code; code++) set[Math.min(code, NON_ASCII)] = 1;
      } else unionInto(set, from.set);
    }
    this.at++;
    if (!negated) return set;
    for (let i = 0; i < SIZE; i++) set[i] = set[i] ? 0 : 1;
    set[NON_ASCII] = 1; // a negated class always admits some character beyond ASCII
    return set;
  }

  private classMember(): { set: CharSet; code?: number } {
    const char = this.source[this.at]!;
    this.at++;
    if (char !== '\\') return { set: this.literal(char.charCodeAt(0)), code: char.charCodeAt(0) };
    const before = this.at;
    const set = this.escapedSet();
    const single = set.reduce((sum, bit) => sum + bit, 0) === 1 && !/[dDwWsSpP]/.test(this.source[before]!);
    return single ? { set, code: set.indexOf(1) } : { set };
  }

  private literal(code: number): CharSet {
    const set = new Uint8Array(SIZE);
    set[Math.min(code, NON_ASCII)] = 1;
    return set;
  }

  private fold(set: CharSet): CharSet {
    if (!this.ignoreCase) return set;
    const out = new Uint8Array(set);
    for (let c = 65; c <= 90; c++) {
      if (set[c] || set[c + 32]) {
        out[c] = 1;
        out[c + 32] = 1;
      }
    }
    return out;
  }
}
