#!/usr/bin/env node
import { runCli } from './run-cli.js';

const code = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
// A command that failed may have left a connection trying again (Redis away): a failure ends the
// process at once, as a success ends it once nothing is left open.
if (code !== 0) process.exit(code);
