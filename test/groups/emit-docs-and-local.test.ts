// One ava worker for these test files of the emitted modules, the diagnostics' pages, telemetry and
// `ddbgen local`, instead of one each; see schema-and-cli.test.ts for how a group runs and why.
import '../emit.test.js';
import '../emit-escaping.test.js';
import '../docs.test.js';
import '../telemetry.test.js';
import '../local/local-command.test.js';
import '../local/local-server.test.js';
