// The PartiQL operations of the local DynamoDB (ExecuteStatement, BatchExecuteStatement,
// ExecuteTransaction): each statement parsed and compiled by partiql.ts to the data plane's
// requests, answered as DynamoDB answers them, with NextTokens opaque to the caller.

import { RequestError, validation } from '../../templates/runtime/in-memory/value.js';
import type { ControlPlane } from './control-plane.js';
import { compileSelect, compileWrite, duplicateItem, keyAndCondition, parseStatement, projectSelected, type PartiqlTable, type Statement } from './partiql.js';
import { constraints } from './table-definition-checks.js';

/** The PartiQL operations over the tables of a control plane, sending their requests through the data plane's `handle`. */
export class PartiqlApi {
  private readonly control: ControlPlane;
  private readonly handle: (operation: string, input: Readonly<Record<string, unknown>>) => Record<string, unknown>;

  constructor(control: ControlPlane, handle: (operation: string, input: Readonly<Record<string, unknown>>) => Record<string, unknown>) {
    this.control = control;
    this.handle = handle;
  }

  /** The key attributes a statement reads by: the table's, or its index's. */
  private partiqlKey(table: string, index?: string): PartiqlTable {
    const record = this.control.tables.get(table);
    if (!record) throw new RequestError('ResourceNotFoundException', 'Requested resource not found');
    const indexes = [...(record.definition.GlobalSecondaryIndexes ?? []), ...(record.definition.LocalSecondaryIndexes ?? [])];
    const schema = index === undefined ? record.definition.KeySchema : indexes.find((i) => i.IndexName === index)?.KeySchema;
    if (!schema) throw validation(`The table does not have the specified index: ${index}`);
    return { hash: schema.find((k) => k.KeyType === 'HASH')!.AttributeName!, range: schema.find((k) => k.KeyType === 'RANGE')?.AttributeName };
  }

  private select(statement: Extract<Statement, { kind: 'select' }>, consistent: unknown): Array<Record<string, unknown>> {
    const { operation, input } = compileSelect(statement, this.partiqlKey(statement.table, statement.index), consistent);
    const items: Array<Record<string, unknown>> = [];
    let start: unknown;
    do {
      const page = this.handle(operation, { ...input, ...(start ? { ExclusiveStartKey: start } : {}) });
      items.push(...(page.Items as Array<Record<string, unknown>>).map((item) => projectSelected(statement, item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  private write(statement: Exclude<Statement, { kind: 'select' }>): void {
    const { kind, input } = compileWrite(statement, this.partiqlKey(statement.table));
    try {
      this.handle(kind === 'Put' ? 'PutItem' : kind === 'Update' ? 'UpdateItem' : 'DeleteItem', input);
    } catch (error) {
      if (kind === 'Put' && error instanceof RequestError && error.type === 'ConditionalCheckFailedException') throw duplicateItem();
      throw error;
    }
  }

  /**
   * One ExecuteStatement: a write, or one page of a SELECT — the page of the Query or Scan it means
   * (`Limit` items read at most, 1 MB), with a NextToken to ask for the next while there is more.
   */
  executeStatement(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (input.Limit !== undefined && !(Number(input.Limit) >= 1)) throw constraints([`Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1`]);
    const statement = parseStatement(input.Statement, input.Parameters);
    if (statement.kind !== 'select') {
      this.write(statement);
      return { Items: [] };
    }
    const { operation, input: request } = compileSelect(statement, this.partiqlKey(statement.table, statement.index), input.ConsistentRead);
    const start = input.NextToken === undefined ? undefined : readNextToken(input.NextToken, input.Statement);
    const page = this.handle(operation, { ...request, ...(input.Limit === undefined ? {} : { Limit: input.Limit }), ...(start ? { ExclusiveStartKey: start } : {}) });
    const items = (page.Items as Array<Record<string, unknown>>).map((item) => projectSelected(statement, item));
    return { Items: items, ...(page.LastEvaluatedKey ? { NextToken: nextToken(input.Statement, page.LastEvaluatedKey) } : {}) };
  }

  batchExecuteStatement(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const statements = (input.Statements as Array<{ Statement?: string; Parameters?: unknown[]; ConsistentRead?: boolean }> | undefined) ?? [];
    if (statements.length < 1 || statements.length > 25) {
      throw constraints([`Value '${statements.length === 0 ? '[]' : 'statements'}' at 'statements' failed to satisfy constraint: Member must have length ${statements.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 25'}`]);
    }
    const Responses = statements.map((request) => {
      let table: string | undefined;
      try {
        const statement = parseStatement(request.Statement, request.Parameters);
        table = statement.table;
        if (statement.kind !== 'select') {
          this.write(statement);
          return { TableName: table };
        }
        const [item] = this.select(statement, request.ConsistentRead);
        return { TableName: table, ...(item ? { Item: item } : {}) };
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        const Code = error.type === 'ValidationException' ? 'ValidationError' : error.type.replace(/Exception$/, '');
        return { ...(table === undefined ? {} : { TableName: table }), Error: { Code, Message: error.message } };
      }
    });
    return { Responses };
  }

  executeTransaction(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const given = (input.TransactStatements as Array<{ Statement?: string; Parameters?: unknown[] }> | undefined) ?? [];
    if (given.length < 1 || given.length > 100) {
      throw constraints([`Value '${given.length === 0 ? '[]' : 'transactStatements'}' at 'transactStatements' failed to satisfy constraint: Member must have length ${given.length < 1 ? 'greater than or equal to 1' : 'less than or equal to 100'}`]);
    }
    const statements = given.map((request) => parseStatement(request.Statement, request.Parameters));
    if (statements.every((statement) => statement.kind === 'select')) {
      const gets = statements.map((statement) => ({ Get: { TableName: statement.table, Key: keyAndCondition((statement as Extract<Statement, { kind: 'select' }>).where, this.partiqlKey(statement.table)).Key } }));
      const answer = this.handle('TransactGetItems', { TransactItems: gets });
      return { Responses: answer.Responses };
    }
    if (statements.some((statement) => statement.kind === 'select')) throw validation('A transaction holds either reads (SELECT) or writes, not both');
    const actions = statements.map((statement) => compileWrite(statement as Exclude<Statement, { kind: 'select' }>, this.partiqlKey(statement.table)));
    try {
      this.handle('TransactWriteItems', { TransactItems: actions.map(({ kind, input: action }) => ({ [kind]: action })), ...(input.ClientRequestToken ? { ClientRequestToken: input.ClientRequestToken } : {}) });
    } catch (error) {
      if (!(error instanceof RequestError) || error.type !== 'TransactionCanceledException') throw error;
      // an INSERT's failed condition is a duplicate key
      const reasons = (error.carries.CancellationReasons as Array<{ Code: string; Message?: string }>).map((reason, at) =>
        reason.Code === 'ConditionalCheckFailed' && actions[at]!.kind === 'Put' ? { Code: 'DuplicateItem', Message: duplicateItem().message } : reason,
      );
      throw new RequestError('TransactionCanceledException', `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`, { CancellationReasons: reasons });
    }
    return {};
  }
}

/** An ExecuteStatement's NextToken: where the next page starts, for this statement only (opaque to the caller, as DynamoDB's are). */
function nextToken(statement: unknown, start: unknown): string {
  return Buffer.from(JSON.stringify({ statement, start })).toString('base64');
}

function readNextToken(token: unknown, statement: unknown): Record<string, unknown> {
  try {
    const read = JSON.parse(Buffer.from(String(token), 'base64').toString('utf8')) as { statement?: unknown; start?: Record<string, unknown> };
    if (read.statement === statement && typeof read.start === 'object' && read.start !== null) return read.start;
  } catch {
    // not one of ours
  }
  throw validation('Invalid NextToken: it was not returned by an ExecuteStatement of this statement');
}
