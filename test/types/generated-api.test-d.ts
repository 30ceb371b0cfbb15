// Compile-only: the API generated from fixtures/social.ts rejects misuse at compile time.
import type { SocialTable } from '../../out/social/index.js';

export async function misuse(db: SocialTable): Promise<void> {
  const updatedAt = new Date();
  // @ts-expect-error: a key needs every part (articleId missing)
  await db.article.get({ userId: 'u', updatedAt });
  // @ts-expect-error: timestamps are Dates, not strings
  await db.article.get({ userId: 'u', updatedAt: '2024-01-01', articleId: 'a' });
  // @ts-expect-error: enum values are checked
  await db.user.put({ id: '1', email: 'e', status: 'DELETED', joinedAt: updatedAt });
  // @ts-expect-error: required attributes are required
  await db.user.put({ id: '1', status: 'ACTIVE', joinedAt: updatedAt });
  // @ts-expect-error: key parts cannot be changed by update
  await db.article.update({ userId: 'u', updatedAt, articleId: 'a' }, { set: { name: 'renamed' } });
  // @ts-expect-error: only optional attributes can be removed
  await db.user.update({ id: '1' }, { remove: ['email'] });
  // @ts-expect-error: add works on numbers and sets only
  await db.user.update({ id: '1' }, { add: { email: 'x' } });
  // @ts-expect-error: a sort-key condition is a left-to-right prefix (updatedAt before articleId)
  await db.article.query({ userId: 'u' }, { where: { gte: { articleId: 'a' } } });
  // @ts-expect-error: one operator per condition
  await db.article.query({ userId: 'u' }, { where: { gte: { updatedAt }, lte: { updatedAt } } });
  // @ts-expect-error: User's sort key is a constant, so it has no query
  db.user.query({ id: '1' });

  // And what is allowed:
  await db.article.query({ userId: 'u' }, { where: { between: [{ updatedAt }, { updatedAt, articleId: 'z' }] }, order: 'desc', limit: 10 });
  await db.article.update({ userId: 'u', updatedAt, articleId: 'a' }, { add: { views: 1 }, remove: ['featuredAt'], set: { tags: new Set(['x']) } });
  const user = await db.user.get({ id: '1' }, { consistent: true });
  const status: 'ACTIVE' | 'BANNED' | undefined = user?.status;
  void status;
}
