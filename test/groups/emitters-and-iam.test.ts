// One ava worker for these test files of the emitters and the IAM policies they imply, instead of
// one each; see schema-and-cli.test.ts for how a group runs and why.
import '../emit/ast.test.js';
import '../emit/doc-comment.test.js';
import '../emit/doc-examples.test.js';
import '../emit/entity-emitters.test.js';
import '../emit/format.test.js';
import '../emit/table-emitters.test.js';
import '../iam-requests.test.js';
import '../iam-resource-policy.test.js';
