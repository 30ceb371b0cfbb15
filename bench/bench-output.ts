// The bench's own schema (bench/schema.ts) generated into bench/out/bench by this very ddbgen, once per
// run, before any section uses it.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { here, root } from './run-options.js';

execFileSync(process.execPath, [path.join(root, 'bin/ddbgen.js'), 'generate', path.join(here, 'schema.ts'), '--out', path.join(here, 'out')], { stdio: 'inherit' });
export const { BenchTable, EventKeys, benchTableDefinition, openTelemetry, telemetry, EmfWriter } = await import('./out/bench/index.js');
