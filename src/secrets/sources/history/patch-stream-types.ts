/** What `PatchStream` (patch-stream.ts) hands out, and what it is told. */

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

/**
 * A file whose blob is read whole rather than from the patch: git called it binary (a NUL in its first 8000 bytes, a
 * `binary` or `-diff` attribute, past `core.bigFileThreshold`), or its added lines hold a NUL (UTF-16 with a BOM whose
 * first 8000 bytes had no zero, which the patch shows as mangled bytes). It is decoded as the tree's files are.
 */
export interface BinaryChange {
  commit: string | null;
  path: string;
  /** The new blob's id (the `index` line's), or null when the patch gave none (then read by commit and path). */
  blob: string | null;
  /** The blob ids the file had in the parents (a merge has one per parent; none when it is new). */
  parentBlobs: string[];
}

export interface PatchStreamSink {
  piece(piece: AddedPiece): void;
  binary(change: BinaryChange): void;
  /**
   * A commit that added files and deleted others (its `--raw` lines say so): some may be renames, which this output
   * (`--no-renames`) shows as whole new files. Its added and deleted files are passed over here, its modified ones
   * read (rename detection pairs only added and deleted files, so their diffs are the same with it); the caller reads
   * the rest again with rename detection. Called once the commit's last file has been read.
   */
  rescan(commit: string, files: RescanFiles): void;
  /** Every commit the log shows, as its mark arrives (its message is read afterwards). */
  commit?(commit: string): void;
}

/** What a commit left to the rename pass holds, as this stream read it. */
export interface RescanFiles {
  /** The paths of the files read here (modified ones): the rename pass shows them as they are here, not again. */
  read: ReadonlySet<string>;
  /**
   * The paths of the files left (added and deleted), each exactly as git names it, to limit the rename pass to them;
   * null when some path could not be told for sure (a header not parsed, a line end or undecodable byte in it).
   */
  left: string[] | null;
}

export interface PatchStreamOptions {
  /** Added bytes of one file after which a piece is cut. Default 4 MB. */
  pieceBytes?: number;
  /** Lines each piece shares with its neighbours, so a secret over a few lines is never cut in two. Default 20. */
  overlapLines?: number;
  /**
   * The rename pass: for each commit listed, the paths an earlier pass already read (`RescanFiles.read`), passed over
   * here. Every other file of those commits is read.
   */
  alreadyRead?: ReadonlyMap<string, ReadonlySet<string>>;
}
