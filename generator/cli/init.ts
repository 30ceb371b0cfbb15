// `ddbgen init`: a starter schema and config in the current folder. Never overwrites a file.

import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CliIo } from '../command-io.js';
import { CONFIG_FILE } from './config.js';

/** The starter schema `ddbgen init` writes (the README's and the getting-started page's). */
export const STARTER_SCHEMA = `import { defineTable, entity, t } from 'ddbgen';

// One table, many entities: each entity's key templates decide where its items live.
// Placeholders like <id> must name attributes; numbers in keys need min and max.
export default defineTable({
  name: 'App',
  delimiter: '#',
  entities: {
    User: entity({
      attributes: {
        id: t.string(),
        email: t.string({ pii: true }),
        createdAt: t.timestamp(),
      },
      key: { pk: 'USER#<id>', sk: 'PROFILE' },
    }),
    Order: entity({
      attributes: {
        userId: t.string(),
        orderId: t.string(),
        placedAt: t.timestamp(),
        total: t.number({ min: 0, max: 1e9 }),
      },
      key: { pk: 'USER#<userId>', sk: 'ORDER#<placedAt>#<orderId>' },
    }),
  },
});
`;

const CONFIG = `import { defineConfig } from 'ddbgen';

export default defineConfig({
  schemas: ['schema.ts'],
  out: 'out',
});
`;

export function initProject(io: CliIo): number {
  const files = [
    { name: 'schema.ts', text: STARTER_SCHEMA },
    { name: CONFIG_FILE, text: CONFIG },
  ];
  const existing = files.filter((f) => existsSync(path.join(io.cwd, f.name)));
  if (existing.length) {
    io.stderr(`ddbgen: ${existing.map((f) => f.name).join(' and ')} already exist${existing.length === 1 ? 's' : ''}; init writes nothing over them\n`);
    return 1;
  }
  for (const f of files) writeFileSync(path.join(io.cwd, f.name), f.text);
  io.stdout(
    `ddbgen: wrote schema.ts and ${CONFIG_FILE}\n` +
      'Next: npx ddbgen generate   (emits out/app/*.ts; needs @aws-sdk/client-dynamodb and @aws-sdk/lib-dynamodb)\n' +
      // the API to reach for first: functions of the context, which a bundler keeps only where they are imported
      "Then: import { createAppContext, orderGet, orderPut, orderQuery } from './out/app/index.js';\n" +
      '      const db = createAppContext(DynamoDBDocumentClient.from(new DynamoDBClient({})));\n' +
      "      await orderPut(db, order); await orderQuery(db, { userId });\n",
  );
  return 0;
}
