/**
 * What state needs of the policy (docs/policy.md) to read a policy file it keeps, such as the committed waivers: the
 * policy's view of that file. `EffectivePolicy` is one; declared here so that state never imports the policy.
 */
export interface PolicyReader {
  /** `unversioned`: not a git repository, so files are read as they are. */
  readonly mode: string;
  /** The commit the policy is read from; null without commits. */
  readonly baseCommit: string | null;
  /** The bytes the gate reads for a file (a policy file's effective content); null when there is no file. */
  read(absolute: string): Promise<Buffer | null>;
}
