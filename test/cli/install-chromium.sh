#!/usr/bin/env bash
# Installs Debian's chromium for the HTML report's browser test (test/cli/report-browser.test.ts).
# Idempotent: does nothing when /usr/bin/chromium already exists. Needs root (CI containers are).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends chromium
/usr/bin/chromium --version
