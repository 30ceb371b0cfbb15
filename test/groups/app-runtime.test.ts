// One ava worker for the unit tests of the app runtime every output ships (templates/runtime/*.test.ts),
// instead of one each; see schema-and-cli.test.ts for how a group runs and why. None of them has a hook
// or a snapshot. Their serial tests (batch's, whose retries hold budgets of real time, and cursor's
// size cap) run first, one at a time, before any of the others start: ava runs a worker's serial
// tests before its concurrent ones, so no CPU-bound test here holds the event loop under them.
import '../../templates/runtime/batch.test.js';
import '../../templates/runtime/codec-affix.test.js';
import '../../templates/runtime/codec-stored.test.js';
import '../../templates/runtime/codec.test.js';
import '../../templates/runtime/cursor.test.js';
import '../../templates/runtime/declared-type.test.js';
import '../../templates/runtime/expiry.test.js';
import '../../templates/runtime/expression.test.js';
import '../../templates/runtime/hmac.test.js';
import '../../templates/runtime/item-size.test.js';
import '../../templates/runtime/item.test.js';
import '../../templates/runtime/key-condition.test.js';
import '../../templates/runtime/native-index.test.js';
import '../../templates/runtime/repository.test.js';
import '../../templates/runtime/rotation.test.js';
import '../../templates/runtime/shard.test.js';
import '../../templates/runtime/stream.test.js';
import '../../templates/runtime/telemetry.test.js';
