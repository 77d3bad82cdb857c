import { TollgateError } from '../core/errors.js';

/**
 * The part of TOML that gitleaks configs use: tables, arrays of tables (also nested, `[[rules.allowlists]]`), and
 * key = value with strings (basic, literal, multi-line), numbers, booleans and arrays of those. Anything else is an
 * error naming the line.
 */
export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export function parseTomlSubset(text: string, label: string): TomlTable {
  const root: TomlTable = {};
  let current: TomlTable = root;
  let position = 0;
  let line = 1;

  const fail = (message: string): never => {
    throw new TollgateError('config', `${label}:${line}: ${message}`);
  };
  const peek = () => text[position];
  const skipSpaceAndComments = (newlines: boolean) => {
    for (;;) {
      const ch = peek();
      if (ch === ' ' || ch === '\t' || ch === '\r') position++;
      else if (ch === '\n' && newlines) {
        line++;
        position++;
      } else if (ch === '#') {
        while (position < text.length && peek() !== '\n') position++;
      } else return;
    }
  };
  const readKey = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipSpaceAndComments(false);
      const ch = peek();
      if (ch === '"' || ch === "'") parts.push(readString());
      else {
        const match = /^[A-Za-z0-9_-]+/.exec(text.slice(position, position + 200));
        if (!match) fail(`expected a key, got ${JSON.stringify(text.slice(position, position + 12))}`);
        parts.push(match![0]);
        position += match![0].length;
      }
      skipSpaceAndComments(false);
      if (peek() !== '.') return parts;
      position++;
    }
  };
  const readString = (): string => {
    if (text.startsWith("'''", position)) return readUntil("'''", false);
    if (text.startsWith('"""', position)) return readUntil('"""', true);
    const quote = peek()!;
    position++;
    let out = '';
    for (;;) {
      const ch = text[position++];
      if (ch === undefined || ch === '\n') fail('unterminated string');
      if (ch === quote) return out;
      if (ch === '\\' && quote === '"') out += readEscape();
      else out += ch;
    }
  };
  const readEscape = (): string => {
    const ch = text[position++];
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', b: '\b', f: '\f' };
    if (ch !== undefined && simple[ch] !== undefined) return simple[ch]!;
    if (ch === 'u' || ch === 'U') {
      const size = ch === 'u' ? 4 : 8;
      const code = Number.parseInt(text.slice(position, position + size), 16);
      position += size;
      return String.fromCodePoint(code);
    }
    return fail(`unknown escape \\${ch}`);
  };
  const readUntil = (fence: string, escapes: boolean): string => {
    position += 3;
    if (peek() === '\n') {
      position++;
      line++;
    }
    let out = '';
    while (!text.startsWith(fence, position)) {
      const ch = text[position++];
      if (ch === undefined) fail('unterminated multi-line string');
      if (ch === '\n') line++;
      if (escapes && ch === '\\') out += readEscape();
      else out += ch;
    }
    position += 3;
    return out;
  };
  const readValue = (): TomlValue => {
    skipSpaceAndComments(false);
    const ch = peek();
    if (ch === '"' || ch === "'") return readString();
    if (ch === '[') {
      position++;
      const items: TomlValue[] = [];
      for (;;) {
        skipSpaceAndComments(true);
        if (peek() === ']') {
          position++;
          return items;
        }
        items.push(readValue());
        skipSpaceAndComments(true);
        if (peek() === ',') position++;
      }
    }
    const match = /^(true|false|[+-]?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(position, position + 64));
    if (!match) return fail(`unsupported value ${JSON.stringify(text.slice(position, position + 12))}`);
    position += match[0].length;
    if (match[0] === 'true' || match[0] === 'false') return match[0] === 'true';
    return Number(match[0].replace(/_/g, ''));
  };
  const tableAt = (path: string[], arrayItem: boolean): TomlTable => {
    let table = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      let next = table[part];
      if (last && arrayItem) {
        if (next === undefined) next = table[part] = [];
        if (!Array.isArray(next)) fail(`${path.join('.')} is not an array of tables`);
        const item: TomlTable = {};
        (next as TomlValue[]).push(item);
        table = item;
        return;
      }
      if (next === undefined) next = table[part] = {};
      if (Array.isArray(next)) next = next[next.length - 1] as TomlTable;
      if (typeof next !== 'object' || next === null) fail(`${path.join('.')} is not a table`);
      table = next as TomlTable;
    });
    return table;
  };

  for (;;) {
    skipSpaceAndComments(true);
    if (position >= text.length) return root;
    if (text.startsWith('[[', position)) {
      position += 2;
      const path = readKey();
      if (!text.startsWith(']]', position)) fail('expected "]]"');
      position += 2;
      current = tableAt(path, true);
    } else if (peek() === '[') {
      position++;
      const path = readKey();
      if (peek() !== ']') fail('expected "]"');
      position++;
      current = tableAt(path, false);
    } else {
      const path = readKey();
      if (peek() !== '=') fail(`expected "=" after ${path.join('.')}`);
      position++;
      const value = readValue();
      let table = current;
      for (const part of path.slice(0, -1)) {
        if (table[part] === undefined) table[part] = {};
        table = table[part] as TomlTable;
      }
      table[path[path.length - 1]!] = value;
    }
  }
}
