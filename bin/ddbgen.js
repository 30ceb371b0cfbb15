#!/usr/bin/env node
// The installed `ddbgen` command: runs the compiled CLI.
import '../dist/generator/cli/bin.js';
