import type { RepoChangeSet } from '../../core/change-set/types.js';
import { rememberFoundSecret } from '../../secrets/known-values.js';
import { redactSecrets, sharedSecretScanner } from '../../secrets/redact.js';

/**
 * What reviewers receive has credentials masked: the secret scanner's rules run over every changed text file (so a
 * secret is known even where the diff shows it without its keyword), and the prompt is then redacted with everything
 * known in this run (those secrets, the ones the `secrets` validator found, credential-named environment values).
 * `code_review.sendSecrets: true` turns this off.
 */
export async function learnChangedSecrets(changeSet: RepoChangeSet, paths: readonly string[]): Promise<void> {
  const scanner = sharedSecretScanner();
  for (const path of paths) {
    const text = await changeSet.readText(path).catch(() => null);
    if (text === null) continue;
    // Allowed fixtures too: an allow marker keeps a value out of the gate's findings, not out of what leaves.
    for (const found of scanner.scanText(text, { path, keepAllowed: true })) {
      rememberFoundSecret(found.secret);
      // A decoded finding (a Kubernetes Secret's base64 value) leaves as its encoded text: mask that too.
      const written = text.slice(found.start, found.end);
      if (written !== found.secret) rememberFoundSecret(written);
    }
  }
}

export function maskPrompt(text: string): string {
  return redactSecrets(text, { path: 'review-prompt.md' });
}
