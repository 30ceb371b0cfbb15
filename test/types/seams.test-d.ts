// Compile-only: the update types generated from fixtures/seams.ts accept exactly what the runtime
// accepts. An attribute copied into a native index under another name (Task's severity → priority,
// state → status) changes only with set, so its copy is rebuilt; a required set may be cleared; the
// TTL attribute in a native key takes ranges but not beginsWith (it is stored as a number).
import type { SeamsTable } from '../../out/seams/index.js';

export async function allowed(db: SeamsTable): Promise<void> {
  await db.task.update({ tenantId: 't', taskId: 'x' }, { set: { severity: 3, state: 'OPEN' } });
  await db.task.update({ tenantId: 't', taskId: 'x' }, { setIfNotExists: { expiresAt: new Date() } });
  await db.thread.update({ forumName: 'f', subject: 's' }, { set: { tags: new Set() }, add: { votes: new Set([2]), amount: 1 } });
  await db.view.viewsSince({ site: 's', at: new Date() });
  await db.view.viewsBetween({ site: 's', at: [new Date(), new Date()] });
  await db.task.queryExpiring({ tenantId: 't' }, { where: { expiresAt: { gte: new Date() } } });
}

export async function refused(db: SeamsTable): Promise<void> {
  // @ts-expect-error severity is copied into byPriority: add would leave the copy behind
  await db.task.update({ tenantId: 't', taskId: 'x' }, { add: { severity: 1 } });
  // @ts-expect-error state is copied into byPriority: setIfNotExists would leave the copy behind
  await db.task.update({ tenantId: 't', taskId: 'x' }, { setIfNotExists: { state: 'NEW' } });
  // @ts-expect-error the TTL attribute is stored as epoch seconds: no text for beginsWith
  await db.task.queryExpiring({ tenantId: 't' }, { where: { expiresAt: { beginsWith: '2026' } } });
  // @ts-expect-error a required attribute cannot be removed
  await db.thread.update({ forumName: 'f', subject: 's' }, { remove: ['amount'] });
}
