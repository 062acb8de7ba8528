#!/usr/bin/env bash
# Formatting and lint checks; fails on the first file out of line. `npm run format` fixes format.
set -euo pipefail
cd "$(dirname "$0")/.."

npx prettier --check --log-level warn .
npx eslint --max-warnings 0 .
npx tsc -p jsconfig.json
git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' \
  | xargs clang-format --dry-run --Werror
echo "lint: clean"
