#!/usr/bin/env bash
# Fetch what bench_openapi.py compares against, into benchmarks/.cache/ (git-ignored):
#   * GitHub's current OpenAPI description, from the npm package @octokit/openapi;
#   * google-adk in its own venv (never in the project's venv), for its OpenAPIToolset.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="$here/.cache"
mkdir -p "$cache"
cd "$cache"
if [ ! -f github-current/api.github.com.json ]; then
  tarball="$(npm pack @octokit/openapi --silent | tail -n 1)"
  mkdir -p github-current
  tar -xzf "$tarball" -C github-current --strip-components=2 package/generated/api.github.com.json
  rm -f "$tarball"
fi
if [ ! -x adk-venv/bin/python ]; then
  python3 -m venv adk-venv
  adk-venv/bin/pip install --quiet --upgrade pip
  adk-venv/bin/pip install --quiet google-adk
fi
adk-venv/bin/python -c "import google.adk, sys; print('google-adk', google.adk.__version__, sys.version.split()[0])"
ls -la github-current/api.github.com.json
