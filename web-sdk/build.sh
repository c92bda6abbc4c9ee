#!/bin/sh
# Builds ../bot/web/static/discord-sdk.js from the pinned packages (make activity-sdk).
set -e
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
version=$(node -p 'require("@discord/embedded-app-sdk/package.json").version')
banner="// @discord/embedded-app-sdk $version (MIT, Copyright (c) Discord Inc.), bundled with its
// dependencies (eventemitter3, uuid, zod, decimal.js-light, lodash.transform: MIT; big-integer:
// Unlicense) by esbuild from web-sdk/ (make activity-sdk). Generated: do not edit."
npx esbuild index.js --bundle --format=esm --target=es2020 --minify-syntax --minify-whitespace \
  --legal-comments=inline --banner:js="$banner" --outfile=../bot/web/static/discord-sdk.js
