import { pathFromDiffHeader, unquotePath, withoutNameEnd } from '../parse-patch.js';
import { AddedLines } from './added-lines.js';

/**
 * Reads `git log -p -U0 --cc --format=%x00commit %H` output as it streams, in bytes: only the lines a commit added are
 * decoded, the removed ones (often half the output) are stepped over with `indexOf`. Inside a hunk every line starts
 * with `+`, `-`, ` ` or `\\`, and no header does, so an added line that itself reads `++ x` is never taken for one.
 * (A merge's combined diff has per-parent counts in its hunk headers that do not add up under -U0, so they are not
 * used.)
 *
 * A file's added lines leave in pieces of about `pieceBytes` (each with the `overlapLines` around it, as the on-disk
 * scan's windows do), so one huge file or commit never has to be held whole. Pure: fed bytes, it hands out pieces.
 */
export interface AddedPiece {
  commit: string | null;
  path: string;
  /** The added lines joined with `\n` (UTF-8 decoded; invalid bytes become U+FFFD). */
  text: string;
  /** The line in the new file of each line of `text`. */
  lineMap: number[];
  /** Findings count only on these lines of the new file (the rest of `text` is overlap with a neighbour piece). */
  own: { start: number; end: number };
}

/** A file git called binary: its blob is read separately (it may be UTF-16 text). */
export interface BinaryChange {
  commit: string | null;
  path: string;
  /** The path in the first parent, when the file existed there (for what was already in it). */
  oldPath: string | null;
}

export interface PatchStreamSink {
  piece(piece: AddedPiece): void;
  binary(change: BinaryChange): void;
  /**
   * A commit that added files and deleted others (its `--raw` lines say so): some may be renames, which this output
   * (`--no-renames`) shows as whole new files. Its files are passed over here; the caller reads it again with rename
   * detection.
   */
  rescan(commit: string): void;
}

export interface PatchStreamOptions {
  /** Added bytes of one file after which a piece is cut. Default 4 MB. */
  pieceBytes?: number;
  /** Lines each piece shares with its neighbours, so a secret over a few lines is never cut in two. Default 20. */
  overlapLines?: number;
}

const NL = 0x0a;
const PLUS = 0x2b;
const MINUS = 0x2d;
const SPACE = 0x20;
const BACKSLASH = 0x5c;
const AT = 0x40;
const COLON = 0x3a;
const TAB = 0x09;
const COMMIT_MARK = Buffer.from('\0commit ');
const DIFF_GIT = Buffer.from('diff --git ');
const DIFF_CC = Buffer.from('diff --cc ');
const DIFF_COMBINED = Buffer.from('diff --combined ');
const NEW_PATH = Buffer.from('+++ ');
const OLD_PATH = Buffer.from('--- ');
const BINARY = Buffer.from('Binary files ');
const NEW_FILE = Buffer.from('new file mode');

interface FileState {
  path: string;
  oldPath: string | null;
  /** Parents of a combined (merge) diff; 1 for a plain diff. */
  parents: number;
  binary: boolean;
  /** In a commit left to the rename pass (`PatchStreamSink.rescan`): nothing of it is kept. */
  skipped: boolean;
  /** Index in `added` of the first line this file's next piece owns. */
  ownFrom: number;
  /** Set once the added bytes passed the piece size: the piece owns lines up to here and waits for the overlap after. */
  cutAt: number;
}

export class PatchStream {
  private readonly pieceBytes: number;
  private readonly overlap: number;
  private carry: Buffer | null = null;
  private commit: string | null = null;
  private file: FileState | null = null;
  /** The open file's added lines (one buffer for every file in turn). */
  private readonly added = new AddedLines();
  private inHunk = false;
  private nextLine = 0;
  /** What the current commit's `--raw` lines said, until its first file: whether it added and deleted files. */
  private rawOpen = false;
  private addsFiles = false;
  private deletesFiles = false;
  private skipCommit = false;

  constructor(
    private readonly sink: PatchStreamSink,
    options: PatchStreamOptions = {},
  ) {
    this.pieceBytes = options.pieceBytes ?? 4_000_000;
    this.overlap = options.overlapLines ?? 20;
  }

  push(chunk: Buffer): void {
    let at = 0;
    if (this.carry) {
      const nl = chunk.indexOf(NL);
      if (nl === -1) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      const line = Buffer.concat([this.carry, chunk.subarray(0, nl)]);
      this.carry = null;
      this.line(line, 0, line.length);
      at = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(NL, at);
      if (nl === -1) break;
      // The hot case, a removed line (in a merge: one its first parent had), is passed over at once.
      if (!(this.inHunk && chunk[at] === MINUS)) this.line(chunk, at, nl);
      at = nl + 1;
    }
    // A copy: holding a slice would keep the whole chunk alive for a few bytes.
    if (at < chunk.length) this.carry = Buffer.from(chunk.subarray(at));
  }

  end(): void {
    const carry = this.carry;
    this.carry = null;
    if (carry) this.line(carry, 0, carry.length);
    this.closeFile();
  }

  /** The line `data[start, end)`, read in place: a view or string of each of git's lines cost more than the rest. */
  private line(data: Buffer, start: number, end: number): void {
    const first = start < end ? data[start] : undefined;
    if (this.inHunk) {
      if (first === PLUS || first === MINUS || first === SPACE || first === BACKSLASH) {
        this.hunkLine(this.file!, data, start, end);
        return;
      }
      this.inHunk = false;
    }
    if (first === 0 && startsWith(data, start, end, COMMIT_MARK)) {
      this.closeFile();
      this.commit = data.toString('utf8', start + COMMIT_MARK.length, end).trim();
      this.rawOpen = true;
      this.addsFiles = false;
      this.deletesFiles = false;
      this.skipCommit = false;
      return;
    }
    if (first === COLON && this.rawOpen) {
      this.rawLine(data, start, end);
      return;
    }
    if (first === 0x64 /* d */ && this.fileHeader(data, start, end)) return;
    const file = this.file;
    if (!file) return;
    if (first === AT) this.hunkHeader(file, data, start, end);
    else if (startsWith(data, start, end, NEW_PATH)) {
      const target = withoutNameEnd(data.toString('utf8', start + NEW_PATH.length, end));
      if (target !== '/dev/null') file.path = unquotePath(target).replace(/^b\//, '');
    } else if (startsWith(data, start, end, OLD_PATH)) {
      const source = withoutNameEnd(data.toString('utf8', start + OLD_PATH.length, end));
      file.oldPath = source === '/dev/null' ? null : unquotePath(source).replace(/^a\//, '');
    } else if (startsWith(data, start, end, NEW_FILE)) file.oldPath = null;
    else if (startsWith(data, start, end, BINARY)) file.binary = true;
  }

  /** `diff --git a/x b/y`, or a merge's `diff --cc y` (two or more parents; the hunk header says how many). */
  private fileHeader(data: Buffer, start: number, end: number): boolean {
    if (startsWith(data, start, end, DIFF_GIT)) this.openFile(pathFromDiffHeader(data.toString('utf8', start, end)), 1);
    else if (startsWith(data, start, end, DIFF_CC))
      this.openFile(unquotePath(data.toString('utf8', start + DIFF_CC.length, end)), 2);
    else if (startsWith(data, start, end, DIFF_COMBINED))
      this.openFile(unquotePath(data.toString('utf8', start + DIFF_COMBINED.length, end)), 2);
    else return false;
    return true;
  }

  /**
   * A `--raw` line: `:<mode> <mode> <id> <id> <status>\t<path>` (a merge's start with `::` and say nothing needed here).
   */
  private rawLine(data: Buffer, start: number, end: number): void {
    if (data[start + 1] === COLON) return;
    const tab = data.indexOf(TAB, start);
    if (tab === -1 || tab >= end) return;
    const status = data[data.lastIndexOf(SPACE, tab) + 1];
    if (status === 0x41 /* A */) this.addsFiles = true;
    else if (status === 0x44 /* D */) this.deletesFiles = true;
  }

  private openFile(path: string, parents: number): void {
    this.closeFile();
    if (this.rawOpen) {
      this.rawOpen = false;
      this.skipCommit = this.addsFiles && this.deletesFiles && this.commit !== null;
      if (this.skipCommit) this.sink.rescan(this.commit!);
    }
    // Until `---` says otherwise, a plain diff's old path is the `a/` side of its header; a merge's is unknown.
    this.file = {
      path,
      oldPath: parents === 1 ? path : null,
      parents,
      binary: false,
      skipped: this.skipCommit,
      ownFrom: 0,
      cutAt: -1,
    };
    this.inHunk = false;
  }

  /**
   * `@@ -a,b +c,d @@`, or a merge's `@@@ -a,b -c,d +e,f @@@` (one `@` more than parents): where the new side starts.
   * Read in place; a header that does not parse leaves the file's hunks unread, as no hunk.
   */
  private hunkHeader(file: FileState, data: Buffer, start: number, end: number): void {
    let at = start;
    while (at < end && data[at] === AT) at++;
    const ats = at - start;
    if (ats < 2 || data[at] !== SPACE) return;
    // The new side's range is the one `+` field, after one `-` field per parent.
    let plus = at;
    while (plus < end && !(data[plus] === PLUS && data[plus - 1] === SPACE)) plus++;
    let number = 0;
    let digits = 0;
    for (let i = plus + 1; i < end && data[i]! >= 0x30 && data[i]! <= 0x39; i++, digits++)
      number = number * 10 + data[i]! - 0x30;
    if (digits === 0) return;
    file.parents = ats - 1;
    this.nextLine = number;
    this.inHunk = true;
  }

  /**
   * One line of a hunk, `data[start, end)`. A plain diff has one prefix column; a merge's combined diff one per parent:
   * a line is in the merge's result unless some column says `-`, and is new to the merge only when every column says
   * `+` (a line from one side was added, and scanned, in that side's own commit).
   */
  private hunkLine(file: FileState, data: Buffer, start: number, end: number): void {
    const columns = file.parents;
    if (data[start] === BACKSLASH) return; // "\ No newline at end of file"
    let added = true;
    for (let i = 0; i < columns; i++) {
      const mark = start + i < end ? data[start + i] : undefined;
      if (mark === MINUS) return; // only in a parent, not in the result
      if (mark !== PLUS) added = false;
    }
    const number = this.nextLine++;
    if (!added || file.binary || file.skipped) return;
    const lines = this.added;
    lines.add(data, Math.min(start + columns, end), end, number);
    if (file.cutAt === -1 && lines.length >= this.pieceBytes) file.cutAt = lines.count;
    if (file.cutAt !== -1 && lines.count >= file.cutAt + this.overlap) this.cutPiece(file);
  }

  /** Hands out the piece that owns lines `ownFrom..cutAt`, keeping the overlap either side for the next one. */
  private cutPiece(file: FileState): void {
    const end = file.cutAt;
    this.emit(file.path, this.added.count, file.ownFrom, end);
    const keepFrom = Math.max(0, end - this.overlap);
    this.added.dropBefore(keepFrom);
    file.ownFrom = end - keepFrom;
    file.cutAt = -1;
  }

  private closeFile(): void {
    const file = this.file;
    this.file = null;
    this.inHunk = false;
    if (!file) return;
    const lines = this.added;
    // A merge's binary file came from one of its sides, whose own commit had it.
    if (file.binary && file.parents === 1 && !file.skipped)
      this.sink.binary({ commit: this.commit, path: file.path, oldPath: file.oldPath });
    else if (!file.binary && !file.skipped && lines.count > file.ownFrom)
      this.emit(file.path, lines.count, file.ownFrom, lines.count);
    lines.clear();
  }

  private emit(path: string, count: number, ownFrom: number, ownTo: number): void {
    const { numbers } = this.added;
    this.sink.piece({
      commit: this.commit,
      path,
      text: this.added.text(count),
      lineMap: numbers.slice(0, count),
      own: { start: numbers[ownFrom]!, end: numbers[ownTo - 1]! },
    });
  }
}

function startsWith(data: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[start + i] !== prefix[i]) return false;
  return true;
}
