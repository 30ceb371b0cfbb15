// Compile-only: the API generated from fixtures/social.ts rejects misuse at compile time.
import { createSocialContext } from '../../out/social/index.js';
import type { Article, ArticleSortCondition, ArticleSortPrefix, ArticleSortTextPrefix, Condition, SocialTable, SortCondition, User, UserCondition } from '../../out/social/index.js';

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
  // @ts-expect-error: the old item on a failed condition is 'old' or 'none', nothing else
  await db.user.create({ id: '1', email: 'e', status: 'ACTIVE', joinedAt: updatedAt }, { returnValuesOnConditionFailure: 'ALL_OLD' });
  // @ts-expect-error: update cannot remove a required attribute
  await db.user.update({ id: '1' }, { remove: ['email'] });
  // @ts-expect-error: primary-key parts cannot be changed by update
  await db.article.update({ userId: 'u', updatedAt, articleId: 'a' }, { set: { updatedAt } });
  // @ts-expect-error: an index-key part cannot be a counter (its key would drift)
  await db.article.update({ userId: 'u', updatedAt, articleId: 'a' }, { add: { featuredAt: updatedAt } });
  // @ts-expect-error: no consistent reads on a GSI
  await db.article.queryByName({ name: 'n' }, { consistent: true });
  // @ts-expect-error: a GSI query needs the index's partition-key parts
  await db.article.queryByName({ userId: 'u' });
  // @ts-expect-error: the index sort key is updatedAt, not articleId
  await db.article.queryByName({ name: 'n' }, { where: { gte: { articleId: 'a' } } });
  // @ts-expect-error: a pattern takes exactly its parameters: between needs a pair
  await db.article.recentArticles({ userId: 'u', updatedAt });
  // @ts-expect-error: a pattern on a GSI has no consistent option
  await db.article.articlesByName({ name: 'n', updatedAt }, { consistent: true });
  const projected = await db.article.queryByTitle({ userId: 'u' });
  // @ts-expect-error: a keys-only projection does not hold views
  void projected.items[0]?.views;
  const fetched = await db.article.queryByTitle({ userId: 'u' }, { fetch: true });
  const views: number | undefined = fetched.items[0]?.views;
  void views;
  // @ts-expect-error: mark needs every optional input of the sparse index
  await db.article.markFeatured({ userId: 'u', updatedAt, articleId: 'a' }, {});
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
  for await (const article of db.article.recentArticlesAll({ userId: 'u', updatedAt: [updatedAt, updatedAt] })) {
    const name: string = article.name;
    void name;
  }
  const collection = await db.userCollection({ id: 'u' });
  for (const entry of collection.items) {
    if (entry.type === 'Article') {
      const title: string = entry.item.name;
      void title;
    }
  }

  const nothing: undefined = await db.user.update({ id: '1' }, { set: { bio: 'x' } }, { returnValues: 'NONE' });
  const changed = await db.user.update({ id: '1' }, { set: { bio: 'x' } }, { returnValues: 'UPDATED_NEW' });
  // @ts-expect-error: UPDATED_NEW returns only the changed attributes, so email may be absent
  const email: string = changed.email;
  void nothing;
  void email;
  // update's result follows returnValues: the item after by default, maybe nothing before, either for a choice made at run time
  const after: User = await db.user.update({ id: '1' }, { set: { bio: 'x' } });
  // @ts-expect-error: ALL_OLD returns the item as it was, undefined if there was none
  const before: User = await db.user.update({ id: '1' }, { set: { bio: 'x' } }, { returnValues: 'ALL_OLD' });
  const chosen = (Math.random() > 0.5 ? 'ALL_NEW' : 'NONE') as 'ALL_NEW' | 'NONE';
  // @ts-expect-error: a returnValues chosen at run time may return nothing
  const either: User = await db.user.update({ id: '1' }, { set: { bio: 'x' } }, { returnValues: chosen });
  // @ts-expect-error: returnValues is one of DynamoDB's ReturnValues for an update
  await db.user.update({ id: '1' }, { set: { bio: 'x' } }, { returnValues: 'ALL' });
  void after;
  void before;
  void either;
  // an …All method's iterator is an AsyncGenerator of the path's items
  const iterator: AsyncGenerator<Article, void, undefined> = db.article.queryAll({ userId: 'u' });
  void iterator;
  // @ts-expect-error: the iterator yields Article items, not Users
  const users: AsyncGenerator<User, void, undefined> = db.article.queryAll({ userId: 'u' });
  void users;
  // @ts-expect-error: an …All method takes its query's partition
  db.article.queryAll({ name: 'n' });
  // @ts-expect-error: between takes a pair of prefixes
  await db.article.query({ userId: 'u' }, { where: { between: [{ updatedAt }] } });

  // Methods with nothing to do are not generated:
  // @ts-expect-error: every Score attribute is part of its key, so Score has no update
  void db.score.update;
  // @ts-expect-error: every Vote attribute is part of its key, so Vote has no update
  void db.vote.update;
  // @ts-expect-error: featured's partition is nothing but the month bucket: the time-range query takes no partition argument
  await db.article.queryFeaturedBetween({}, { from: updatedAt, to: updatedAt });

  // Write conditions: UserCondition is Condition<User> spelled out, both ways assignable.
  const written: User = { id: '1', email: 'e', status: 'ACTIVE', joinedAt: updatedAt };
  // @ts-expect-error: a condition compares declared attributes only
  await db.user.putIf(written, { nickname: { exists: true } });
  // @ts-expect-error: a comparison takes the attribute's type (enum values are checked)
  await db.user.putIf(written, { status: { eq: 'DELETED' } });
  await db.user.putIf(written, { status: { ne: 'BANNED' } }, { returnValuesOnConditionFailure: 'old' });
  // @ts-expect-error: put takes no condition (a put on a condition is putIf), so an app that puts carries no condition code
  await db.user.put(written, { condition: { status: { eq: 'ACTIVE' } } });
  // @ts-expect-error: putIf needs its condition
  await db.user.putIf(written);
  // a versioned entity's put takes what a failed version check returns, and no condition
  await db.settings.put({ userId: '1', theme: 'dark', notifications: true, data: { language: 'en', shortcuts: [] } }, { returnValuesOnConditionFailure: 'old' });
  // @ts-expect-error: no condition on a versioned put either
  await db.settings.put({ userId: '1', theme: 'dark', notifications: true, data: { language: 'en', shortcuts: [] } }, { condition: { theme: { eq: 'dark' } } });
  // @ts-expect-error: beginsWith is for strings
  await db.user.update({ id: '1' }, { set: { bio: 'x' } }, { condition: { joinedAt: { beginsWith: '2024' } } });
  await db.user.delete({ id: '1' }, { condition: { $or: [{ bio: { exists: false } }, { $not: { status: { eq: 'BANNED' } } }] } });
  const spelled: UserCondition = {} as Condition<User>;
  const mapped: Condition<User> = spelled;
  void mapped;
  // A path's sort condition is SortCondition<Prefix, TextPrefix> spelled out, both ways assignable.
  const sortSpelled: ArticleSortCondition = {} as SortCondition<ArticleSortPrefix, ArticleSortTextPrefix>;
  const sortGeneric: SortCondition<ArticleSortPrefix, ArticleSortTextPrefix> = sortSpelled;
  void sortGeneric;

  // a transaction: each entity's writes chain back to the transaction, typed as its repository's
  await db.transaction().user.put(written).article.delete({ userId: 'u', updatedAt, articleId: 'a' }).settings.update({ userId: 'u' }, { set: { theme: 'dark' } }, { expectedVersion: 3 }).commit();
  // @ts-expect-error: a transaction's put takes the entity's item (enum values are checked)
  db.transaction().user.put({ ...written, status: 'DELETED' });
  // @ts-expect-error: a versioned entity's update in a transaction needs the expected version
  db.transaction().settings.update({ userId: 'u' }, { set: { theme: 'dark' } });
  // @ts-expect-error: a transaction has writes for the table's entities only
  void db.transaction().nobody;

  // And what is allowed:
  await db.article.queryFeaturedBetween({ from: updatedAt, to: updatedAt }, { limit: 5 });
  await db.article.query({ userId: 'u' }, { where: { between: [{ updatedAt }, { updatedAt, articleId: 'z' }] }, order: 'desc', limit: 10 });
  await db.article.update({ userId: 'u', updatedAt, articleId: 'a' }, { add: { views: 1 }, remove: ['featuredAt'], set: { tags: new Set(['x']) } });
  const user = await db.user.get({ id: '1' }, { consistent: true });
  const status: 'ACTIVE' | 'BANNED' | undefined = user?.status;
  void status;
}

export function contextMisuse(client: import('@aws-sdk/lib-dynamodb').DynamoDBDocumentClient, telemetry: import('../../out/social/index.js').TableTelemetry): void {
  // the context takes the table class's options, telemetry included (the function forms report their calls)
  createSocialContext(client, { telemetry, tableName: 'Social-test' });
  // @ts-expect-error: telemetry is made by telemetry(...sinks) or openTelemetry(api), not a bare sink
  createSocialContext(client, { telemetry: { start: () => ({ end: () => undefined }) } });
}
