// Transactions across entities: up to 100 planned writes sent as one TransactWriteItems, all or
// nothing. Limits (100 items, 4 MB, one write per item) are checked before sending; a
// ClientRequestToken makes retries idempotent; cancellations caused only by TransactionConflict
// are retried with backoff (the SDK does not); any other cancellation becomes a TransactionError
// naming each failing item, its reason and its typed error.

import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { backoffDelay, defaultSleep, keyId } from './batch.js';
import type { Condition } from './condition.js';
import { TransactionError, ValidationError, hideProperty, type TransactionItemFailure } from './errors.js';
import type { EntityModel, TableContext, TransactionRetryPolicy } from './table-context.js';
import { planCheck, planDelete, planPut, planUpdate, type UpdateInput, type VersionedWriteOptions, type WriteOptions, type WritePlan } from './write.js';

export type { TransactionRetryPolicy } from './table-context.js';

// 4 MiB written out: a bundler keeps a top-level `4 * 1024 * 1024` (an operator it does not evaluate) even unused
export const TRANSACTION_LIMITS = { items: 100, bytes: 4_194_304 } as const;

/** A fresh idempotency token (at most 36 characters, as DynamoDB requires). */
export function newToken(): string {
  // read here, not at load, so that loading the module reads no global
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

const SHAPE: Record<WritePlan['operation'], string> = { put: 'Put', update: 'Update', delete: 'Delete', check: 'ConditionCheck' };


export interface CommitOptions {
  /** Idempotency token; by default a new one per commit, reused by its own retries. */
  readonly token?: string;
  /** Overrides the table's `transactionRetry` for this commit. */
  readonly retry?: TransactionRetryPolicy;
}

/** Collects planned writes and sends them atomically. */
export class Transaction {
  private readonly plans: WritePlan[] = [];
  private readonly ctx: TableContext;
  constructor(ctx: TableContext) {
    this.ctx = ctx;
  }

  add(plan: WritePlan): void {
    this.plans.push(plan);
  }

  /** What the table's errors key pii fingerprints with: its `piiSecret` (absent: the process's random key). */
  get piiSecret(): string | undefined {
    return this.ctx.piiSecret;
  }

  /** The TransactWriteItems input, checked against DynamoDB's limits. */
  input(token: string) {
    const count = this.plans.length;
    if (count === 0 || count > TRANSACTION_LIMITS.items) {
      throw new ValidationError('(transaction)', 'items', `a transaction holds 1 to ${TRANSACTION_LIMITS.items} writes, this one has ${count}`, 'TRANSACTION_TOO_LARGE');
    }
    const bytes = this.plans.reduce((sum, plan) => sum + plan.size, 0);
    if (bytes > TRANSACTION_LIMITS.bytes) {
      throw new ValidationError('(transaction)', 'size', `the transaction is ${bytes} bytes, above DynamoDB's ${TRANSACTION_LIMITS.bytes}`, 'TRANSACTION_TOO_LARGE');
    }
    const seen = new Map<string, WritePlan>();
    for (const plan of this.plans) {
      const id = keyId(plan.key, Object.keys(plan.key).sort());
      const other = seen.get(id);
      if (other) throw new ValidationError(plan.entity, '(transaction)', `${plan.described} is written twice (${other.operation} and ${plan.operation}); DynamoDB allows one write per item in a transaction`);
      seen.set(id, plan);
    }
    return {
      ClientRequestToken: token,
      TransactItems: this.plans.map((plan) => ({
        [SHAPE[plan.operation]]: {
          TableName: this.ctx.tableName,
          ...plan.input,
          ...(plan.input['ConditionExpression'] ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } : {}),
        },
      })),
    };
  }

  /** Sends every write in one transaction; TransactionError (nothing written) if it is cancelled. */
  async commit(options: CommitOptions = {}): Promise<void> {
    const input = this.input(options.token ?? newToken());
    const policy = { maxAttempts: 5, ...this.ctx.transactionRetry, ...options.retry };
    const sleep = policy.sleep ?? defaultSleep;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.ctx.client.send(new TransactWriteCommand(input as never));
        return;
      } catch (error) {
        const name = (error as { name?: string }).name;
        const reasons = (error as { CancellationReasons?: Array<{ Code?: string; Message?: string; Item?: Record<string, unknown> }> }).CancellationReasons ?? [];
        const failed = reasons.map((r, index) => ({ ...r, index })).filter((r) => r.Code !== undefined && r.Code !== 'None');
        const conflictOnly = (name === 'TransactionCanceledException' && failed.length > 0 && failed.every((r) => r.Code === 'TransactionConflict')) || name === 'TransactionInProgressException';
        if (conflictOnly && attempt + 1 < (policy.maxAttempts ?? 5)) {
          await sleep(backoffDelay(attempt, policy));
          continue;
        }
        if (name !== 'TransactionCanceledException') throw error;
        const failures: TransactionItemFailure[] = failed.map((r) => {
          const plan = this.plans[r.index]!;
          const failure = {
            index: r.index,
            operation: plan.operation,
            entity: plan.entity,
            described: plan.described,
            reason: r.Code!,
            message: r.Message,
            ...(r.Code === 'ConditionalCheckFailed' ? { error: plan.conditionFailed(r.Item, error) } : {}),
          };
          hideProperty(failure, 'key', plan.key);
          return failure as TransactionItemFailure;
        });
        throw new TransactionError(failures, error);
      }
    }
  }
}

/** One entity's writes inside a transaction; each method returns the whole transaction, for chaining. */
export class EntityTransaction<Parent, Input, Key, Update, Item, Versioned extends boolean> {
  private readonly tx: Transaction;
  private readonly model: EntityModel;
  private readonly parent: Parent;
  constructor(tx: Transaction, model: EntityModel, parent: Parent) {
    this.tx = tx;
    this.model = model;
    this.parent = parent;
  }

  put(item: Input, options?: WriteOptions<Item>): Parent {
    this.tx.add(planPut(this.model, item, 'put', options, this.tx.piiSecret).plan);
    return this.parent;
  }

  create(item: Input, options?: WriteOptions<Item>): Parent {
    this.tx.add(planPut(this.model, item, 'create', options, this.tx.piiSecret).plan);
    return this.parent;
  }

  replace(item: Input, options?: WriteOptions<Item>): Parent {
    this.tx.add(planPut(this.model, item, 'replace', options, this.tx.piiSecret).plan);
    return this.parent;
  }

  update(key: Key, changes: Update, ...options: Versioned extends true ? [VersionedWriteOptions<Item>] : [WriteOptions<Item>?]): Parent {
    this.tx.add(planUpdate(this.model, key as Record<string, unknown>, changes as UpdateInput, options[0] ?? {}, this.tx.piiSecret));
    return this.parent;
  }

  delete(key: Key, ...options: Versioned extends true ? [VersionedWriteOptions<Item>] : [WriteOptions<Item>?]): Parent {
    this.tx.add(planDelete(this.model, key as Record<string, unknown>, options[0] ?? {}, this.tx.piiSecret));
    return this.parent;
  }

  /** The transaction fails unless `condition` holds for this item. */
  check(key: Key, condition: Condition<Item>): Parent {
    this.tx.add(planCheck(this.model, key as Record<string, unknown>, condition as Condition<unknown>, this.tx.piiSecret));
    return this.parent;
  }
}

/**
 * What a generated `<Table>Transaction` extends: an EntityTransaction per entity model given, under
 * the entity's property name, writing into one Transaction, and `commit`. The generated class
 * declares each property's type (`declare readonly article: EntityTransaction<…>`), so the user's
 * type checker reads declared types rather than checking a `new EntityTransaction<…>` per entity.
 */
export class TableTransaction {
  private readonly writes: Transaction;
  constructor(context: TableContext, models: Readonly<Record<string, EntityModel>>) {
    this.writes = new Transaction(context);
    for (const [name, model] of Object.entries(models)) {
      Object.defineProperty(this, name, { value: new EntityTransaction(this.writes, model, this), enumerable: true });
    }
  }

  /**
   * Sends every write at once; TransactionError (naming each failing item and why) if DynamoDB
   * cancels it, in which case nothing was written. `options.token` is the idempotency token (by
   * default a new one per commit).
   * @throws ValidationError before anything is sent if the transaction is empty, holds more than 100 writes or 4 MB, or writes one item twice
   */
  commit(options?: CommitOptions): Promise<void> {
    return this.writes.commit(options);
  }
}
