#!/bin/sh
# Installs the pinned real agent CLIs into test/.agent-clis/<name>/ (git-ignored, outside package.json) for the
# contract tests in src/agents/contract.test.ts. Without this folder those tests skip. The versions must equal the
# adapters' `verifiedVersions` (src/agents/adapters.test.ts checks it).
# Claude needs an explicit version: plain `@anthropic-ai/claude-code` on Node 20 silently resolves to 2.1.197.
# Each install is bounded (TOLLGATE_CLI_INSTALL_TIMEOUT seconds, default 600): a registry that stalls fails this script,
# and .ci/run then skips the contract tests and says so, instead of holding CI until its own limit.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
dest="$root/test/.agent-clis"
mkdir -p "$dest"
printf '*\n' > "$dest/.gitignore"
for spec in \
  claude:@anthropic-ai/claude-code@2.1.330 \
  codex:@openai/codex@0.169.0 \
  gemini:@google/gemini-cli@0.61.0 \
  copilot:@github/copilot@1.0.102 \
  opencode:opencode-ai@1.18.33; do
  name=${spec%%:*}
  package=${spec#*:}
  echo "installing $package into test/.agent-clis/$name"
  timeout "${TOLLGATE_CLI_INSTALL_TIMEOUT:-600}" \
    npm install --prefix "$dest/$name" --no-audit --no-fund --no-save "$package"
done
