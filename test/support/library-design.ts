// The library design the migration tests use (members, books, a Borrowed edge Member→Book with its
// inverse as a second item, a Reserved edge with its inverse in a GSI, a title GSI, a random-shard
// Visits counter), and its items written raw in their stored form, as many as a test asks for.

/** The schema file, with Member's key prefix, the delimiter and the Visits shard count to vary. */
export function librarySchema(options: { member?: string; delimiter?: string; shards?: number } = {}): string {
  const d = options.delimiter ?? '#';
  return `import { defineTable, edge, entity, gsi, t } from 'ddbgen';
export default defineTable({
  name: 'Library',
  delimiter: '${d}',
  indexes: { byTitle: gsi({ pk: 'gsi1pk', sk: 'gsi1sk' }), byReserved: gsi({ pk: 'gsi2pk', sk: 'gsi2sk' }) },
  entities: {
    Member: entity({ attributes: { memberId: t.string(), name: t.string() }, key: { pk: '${options.member ?? 'MEMBER'}${d}<memberId>', sk: 'PROFILE' } }),
    Book: entity({
      attributes: { isbn: t.string(), title: t.string() },
      key: { pk: 'BOOK${d}<isbn>', sk: 'BOOK' },
      indexes: { byTitle: { pk: 'TITLE${d}<title>', sk: '<isbn>' } },
    }),
    Visits: entity({
      attributes: { branchId: t.string(), visits: t.number({ integer: true, min: 0 }), pages: t.number({ integer: true, min: 0 }) },
      key: { pk: 'VISITS${d}<branchId>${d}<shard>', sk: 'TOTAL', shard: { count: ${options.shards ?? 8}, random: true } },
    }),
  },
  edges: {
    Borrowed: edge({ types: ['Member', 'Book'], forward: 'BORROWED', inverse: 'BORROWED_BY', attributes: { on: t.string() } }),
    Reserved: edge({ types: ['Member', 'Book'], forward: 'RESERVED', inverse: 'RESERVED_BY', inverseIndex: 'byReserved' }),
  },
});
`;
}

/**
 * Items of the old schema (MEMBER prefix, `#`) in stored form: `members` members each borrowing one
 * book, a book per 5 members, 16 visit counters. `expected` holds every item's key after the
 * MEMBER → PATRON migration, `moved` how many items that moves (members and forward edge halves).
 */
export function libraryItems(members: number): { items: Array<Record<string, unknown>>; expected: string[]; moved: number } {
  const books = Math.max(1, Math.floor(members / 5));
  const items: Array<Record<string, unknown>> = [];
  const expected: string[] = [];
  for (let i = 0; i < members; i++) {
    const book = `b${i % books}`;
    items.push({ pk: `MEMBER#m${i}`, sk: 'PROFILE', memberId: `m${i}`, name: `member ${i}` });
    items.push({ pk: `MEMBER#m${i}`, sk: `BORROWED#Book#${book}`, on: '2026-11-01' });
    items.push({ pk: `BOOK#${book}`, sk: `BORROWED_BY#Member#m${i}`, on: '2026-11-01' });
    expected.push(`PATRON#m${i} PROFILE`, `PATRON#m${i} BORROWED#Book#${book}`, `BOOK#${book} BORROWED_BY#Member#m${i}`);
  }
  for (let j = 0; j < books; j++) {
    items.push({ pk: `BOOK#b${j}`, sk: 'BOOK', isbn: `b${j}`, title: `title ${j}`, gsi1pk: `TITLE#title ${j}`, gsi1sk: `b${j}` });
    expected.push(`BOOK#b${j} BOOK`);
  }
  for (let shard = 0; shard < 8; shard++) {
    for (const branch of ['north', 'south']) {
      items.push({ pk: `VISITS#${branch}#${shard}`, sk: 'TOTAL', branchId: branch, visits: shard + 1, pages: 10 * shard });
      expected.push(`VISITS#${branch}#${shard} TOTAL`);
    }
  }
  return { items, expected, moved: 2 * members };
}
