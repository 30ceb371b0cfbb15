// Compile-only: edges are typed by the entities they connect (fixtures/fans.ts: integer ids), their
// required attributes are required, and `where` operators take what they mean.
import type { FansTable } from '../../out/fans/index.js';
import type { SocialTable } from '../../out/social/index.js';

export async function edges(db: FansTable): Promise<void> {
  const since = new Date();
  // @ts-expect-error: `since` is a required attribute of Fan
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 });
  // @ts-expect-error: `since` is required in the attributes too
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { note: 'x' });
  // @ts-expect-error: a User's id is the integer its key holds, not a string
  await db.fan.add({ type: 'User', id: '1' }, { type: 'Actor', id: 2 }, { since });
  // @ts-expect-error: only the entities the edge connects are node types
  await db.fan.add({ type: 'Movie', id: 1 }, { type: 'Actor', id: 2 }, { since });
  // @ts-expect-error: addMany needs each pair's required attributes
  await db.fan.addMany([{ from: { type: 'User', id: 1 }, to: { type: 'Actor', id: 2 } }]);
  // @ts-expect-error: a type filter names a node type
  await db.fan.outgoing({ type: 'User', id: 1 }, { type: 'Movie' });

  // And what is allowed: the optional attribute may be left out, ids come back as numbers.
  await db.fan.add({ type: 'User', id: 1 }, { type: 'Actor', id: 2 }, { since }, { failIfExists: true });
  await db.fan.addMany([{ from: { type: 'User', id: 1 }, to: { type: 'Series', id: 3 }, attributes: { since, note: 'binge' } }]);
  const page = await db.fan.outgoing({ type: 'User', id: 1 }, { type: 'Actor' });
  const id: number = page.items[0]!.id;
  const when: Date = page.items[0]!.since;
  void id;
  void when;
}

export async function follow(db: SocialTable): Promise<void> {
  // An edge without required attributes takes none.
  await db.follow.add({ type: 'User', id: 'a' }, { type: 'User', id: 'b' });
}

export async function conditions(db: SocialTable): Promise<void> {
  const updatedAt = new Date();
  // @ts-expect-error: beginsWith is a text prefix, so it ends on a string part (updatedAt is a timestamp)
  await db.article.query({ userId: 'u' }, { where: { beginsWith: { updatedAt } } });
  // @ts-expect-error: Score's sort key has a string part only after points, so beginsWith must give points first
  await db.score.query({ game: 'go', day: updatedAt }, { where: { beginsWith: { points: 1 } } });
  // eq matches whole parts on any left-to-right prefix; beginsWith a text prefix of the last (string) part.
  await db.article.query({ userId: 'u' }, { where: { eq: { updatedAt } } });
  await db.article.query({ userId: 'u' }, { where: { beginsWith: { updatedAt, articleId: 'a' } } });
  await db.article.queryByTitle({ userId: 'u' }, { where: { beginsWith: { name: 'z' } } });
}
