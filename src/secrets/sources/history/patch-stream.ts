import { pathFromDiffHeader, unquotePath, withoutNameEnd } from '../parse-patch.js';
import { AddedLines } from './added-lines.js';
import { type FileState, newFileState } from './file-state.js';
import type { PatchStreamOptions, PatchStreamSink } from './patch-stream-types.js';

export type {
  AddedPiece,
  BinaryChange,
  PatchStreamOptions,
  PatchStreamSink,
  RescanFiles,
} from './patch-stream-types.js';

const NL = 0x0a;
const indexOfByte = Uint8Array.prototype.indexOf;
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
const BINARY = Buffer.from('Binary files ');
const INDEX = Buffer.from('index ');
const OLD_PATH = Buffer.from('--- ');
const NEW_FILE = Buffer.from('new file mode ');
const DELETED_FILE = Buffer.from('deleted file mode ');
const NOTHING_READ: ReadonlyMap<string, ReadonlySet<string>> = new Map();
const NO_PATHS: ReadonlySet<string> = new Set();
/** An all-zero id: no blob on that side (an added or deleted file). */
const NO_BLOB = /^0+$/;

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
  /** The commit left to the rename pass, as its files are read (`PatchStreamSink.rescan`). */
  private rescanRead = new Set<string>();
  private rescanLeft: string[] | null = [];
  /** Empty outside the rename pass (see `decideSkip`). */
  private readonly alreadyRead: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(
    private readonly sink: PatchStreamSink,
    options: PatchStreamOptions = {},
  ) {
    this.pieceBytes = options.pieceBytes ?? 4_000_000;
    this.overlap = options.overlapLines ?? 20;
    this.alreadyRead = options.alreadyRead ?? NOTHING_READ;
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
      // The typed array's own search: `Buffer#indexOf` goes through a binding call, a cost paid once per line of the
      // patch (rails v7.2.0..v8.0.0: 100k lines, a third less CPU for this loop).
      const nl = indexOfByte.call(chunk, NL, at);
      if (nl === -1) break;
      // The hot cases, read here without `line`'s dispatch: a removed line (in a merge: one its first parent had) is
      // passed over at once, an added one (in a merge: one its first parent lacked) goes straight to the hunk.
      const first = chunk[at];
      if (!this.inHunk || (first !== MINUS && first !== PLUS)) this.line(chunk, at, nl);
      else if (first === PLUS) this.hunkLine(this.file!, chunk, at, nl);
      at = nl + 1;
    }
    // A copy: holding a slice would keep the whole chunk alive for a few bytes.
    if (at < chunk.length) this.carry = Buffer.from(chunk.subarray(at));
  }

  end(): void {
    const carry = this.carry;
    this.carry = null;
    if (carry) this.line(carry, 0, carry.length);
    this.closeCommit();
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
      this.closeCommit();
      this.commit = data.toString('utf8', start + COMMIT_MARK.length, end).trim();
      this.sink.commit?.(this.commit);
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
    if (first === AT) {
      this.decideSkip(file);
      this.hunkHeader(file, data, start, end);
    } else if (startsWith(data, start, end, NEW_PATH)) {
      const target = withoutNameEnd(data.toString('utf8', start + NEW_PATH.length, end));
      if (target !== '/dev/null') file.path = file.newPath = unquotePath(target).replace(/^b\//, '');
    } else if (startsWith(data, start, end, OLD_PATH)) {
      // Read only for a file left to the rename pass: a deleted file's path, to limit that pass to it.
      if (this.skipCommit && file.addedOrDeleted) {
        const source = withoutNameEnd(data.toString('utf8', start + OLD_PATH.length, end));
        if (source !== '/dev/null') file.oldPath = unquotePath(source).replace(/^a\//, '');
      }
    } else if (startsWith(data, start, end, NEW_FILE) || startsWith(data, start, end, DELETED_FILE))
      file.addedOrDeleted = true;
    else if (startsWith(data, start, end, BINARY)) file.binary = true;
    else if (startsWith(data, start, end, INDEX)) file.index = data.toString('latin1', start + INDEX.length, end);
  }

  /** `diff --git a/x b/y`, or a merge's `diff --cc y` (two or more parents; the hunk header says how many). */
  private fileHeader(data: Buffer, start: number, end: number): boolean {
    if (startsWith(data, start, end, DIFF_GIT)) {
      const header = data.toString('utf8', start, end);
      this.openFile(pathFromDiffHeader(header), 1);
      // Only a commit left to the rename pass needs the path for sure (to limit that pass to it).
      if (this.skipCommit) this.file!.headerPath = samePathHeader(header.slice(DIFF_GIT.length));
    } else if (startsWith(data, start, end, DIFF_CC))
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
    }
    this.file = newFileState(path, parents);
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
    if (!added || file.binary || file.nul || file.skipped) return;
    const lines = this.added;
    lines.add(data, Math.min(start + columns, end), end, number);
    if (file.cutAt === -1 && lines.length >= this.pieceBytes) file.cutAt = lines.count;
    if (file.cutAt !== -1 && lines.count >= file.cutAt + this.overlap) this.cutPiece(file);
  }

  /** Hands out the piece that owns lines `ownFrom..cutAt`, keeping the overlap either side for the next one. */
  private cutPiece(file: FileState): void {
    const end = file.cutAt;
    this.emit(file, this.added.count, file.ownFrom, end);
    const keepFrom = Math.max(0, end - this.overlap);
    this.added.dropBefore(keepFrom);
    file.ownFrom = end - keepFrom;
    file.cutAt = -1;
  }

  /**
   * Whether the open file is passed over, decided once its header lines are read (before its first hunk, and at its
   * end for a file with none): in a commit left to the rename pass, an added or deleted file; in the rename pass, a
   * file the first pass read.
   */
  private decideSkip(file: FileState): void {
    if (this.skipCommit) file.skipped = file.addedOrDeleted;
    // The same look-ups in every pass (empty maps outside the rename pass): code the first pass never ran would throw
    // the optimized parse away when the rename pass first ran it.
    else if (this.commit !== null) file.skipped = (this.alreadyRead.get(this.commit) ?? NO_PATHS).has(file.path);
  }

  private closeCommit(): void {
    this.closeFile();
    if (this.skipCommit && this.commit !== null) {
      this.sink.rescan(this.commit, { read: this.rescanRead, left: this.rescanLeft });
      this.rescanRead = new Set();
      this.rescanLeft = [];
    }
    this.skipCommit = false;
  }

  private closeFile(): void {
    const file = this.file;
    this.file = null;
    this.inHunk = false;
    if (!file) return;
    this.decideSkip(file);
    if (this.skipCommit) this.noteRescanFile(file);
    const lines = this.added;
    if (!file.binary && !file.nul && !file.skipped && lines.count > file.ownFrom)
      this.emit(file, lines.count, file.ownFrom, lines.count);
    // A merge's binary file is shown only when it differs from every parent: the merge wrote it.
    if ((file.binary || file.nul) && !file.skipped) this.wholeBlob(file);
    lines.clear();
  }

  /** A file of a commit left to the rename pass: read here, or left, by its exact path when there is one. */
  private noteRescanFile(file: FileState): void {
    if (!file.skipped) {
      this.rescanRead.add(file.path);
      return;
    }
    if (this.rescanLeft === null) return;
    const exact = file.newPath ?? file.oldPath ?? file.headerPath;
    // git reads a pathspec a line at a time (a line end cannot be in one), and U+FFFD may stand for bytes the path
    // really has: such a path is not passed on, and the rename pass then reads its commits whole.
    if (exact === null || exact === '' || /[\n\r\uFFFD]/.test(exact)) this.rescanLeft = null;
    else this.rescanLeft.push(exact);
  }

  private wholeBlob(file: FileState): void {
    const ids = file.index === null ? [] : indexIds(file.index);
    const blob = ids.length > 0 ? ids[ids.length - 1]! : null;
    // A deleted file has no new blob: nothing arrived.
    if (blob !== null && NO_BLOB.test(blob)) return;
    const parentBlobs = ids.slice(0, -1).filter((id) => !NO_BLOB.test(id));
    this.sink.binary({ commit: this.commit, path: file.path, blob, parentBlobs });
  }

  private emit(file: FileState, count: number, ownFrom: number, ownTo: number): void {
    const { numbers } = this.added;
    const text = this.added.text(count);
    // A NUL in text git showed as lines: the file is not what its patch says (UTF-16 whose BOM git did not look past),
    // so it is read whole and decoded like the tree's files. Checked on the decoded piece: one fast search.
    if (text.includes('\0')) {
      file.nul = true;
      return;
    }
    this.sink.piece({
      commit: this.commit,
      path: file.path,
      text,
      lineMap: numbers.slice(0, count),
      own: { start: numbers[ownFrom]!, end: numbers[ownTo - 1]! },
    });
  }
}

/** `<old>[,<old>…]..<new>[ <mode>]`: the parents' ids, then the new one. */
function indexIds(rest: string): string[] {
  const match = /^([0-9a-f,]+)\.\.([0-9a-f]+)/.exec(rest);
  return match ? [...match[1]!.split(','), match[2]!] : [];
}

/**
 * The path of `a/<path> b/<path>` (or both sides quoted) when both sides name the same path, as every file of a diff
 * without rename detection does; null when the line could be read more than one way.
 */
export function samePathHeader(rest: string): string | null {
  if (rest.length % 2 === 0 || rest[(rest.length - 1) / 2] !== ' ') return null;
  const half = (rest.length - 1) / 2;
  const left = rest.slice(0, half);
  const right = rest.slice(half + 1);
  if (left.startsWith('a/') && right.startsWith('b/') && left.slice(2) === right.slice(2)) return right.slice(2);
  if (left.startsWith('"a/') && right.startsWith('"b/') && left.slice(3) === right.slice(3))
    return unquotePath(`"${right.slice(3)}`);
  return null;
}

function startsWith(data: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[start + i] !== prefix[i]) return false;
  return true;
}
