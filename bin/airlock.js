#!/usr/bin/env node
// The `airlock` command: runs the built CLI (out/main/cli.js), or says how to build it.
import { existsSync } from 'node:fs';

const cli = new URL('../out/main/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'airlock: the command line is not built yet; run `npm run build` in the Airlock folder first.\n',
  );
  process.exit(1);
}
await import(cli.href);
