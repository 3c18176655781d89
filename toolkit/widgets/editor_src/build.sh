#!/bin/sh
# Rebuild ../static/editor.js (the paste box's code editor) from package-lock.json: run from this folder.
#   ./build.sh        (needs node and npm; nothing else is downloaded at run time: the bundle is committed)
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
[ -x node_modules/@esbuild/linux-x64/bin/esbuild ] || [ -x node_modules/esbuild/bin/esbuild ] || node node_modules/esbuild/install.js
npm run build
